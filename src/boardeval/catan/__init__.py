"""Catan: board model and share codes, the spot evaluator, the fairness energy, generators, rendering.

The CLI and the web app import only the names listed in ``__all__`` here.
"""

__all__: list[str] = []

# ---- section: board model, evaluation, rendering (issue 3) -- edit only inside this section ----
# ---- end of section (issue 3) ----

# ---- section: constraints and generators (issue 4) -- edit only inside this section ----
# ---- end of section (issue 4) ----
