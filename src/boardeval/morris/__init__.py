"""Nine Men's Morris: board and rules engine, explainable evaluation, alpha-beta search, why-panel.

The CLI and the web app import only the names listed in ``__all__`` here.
"""

__all__: list[str] = []

# ---- section: engine (board, rules, notation, perft) -- edit only inside this section ----
# ---- end of section (engine) ----

# ---- section: evaluation, search, why-panel, matches -- edit only inside this section ----
# ---- end of section (evaluation) ----
