"""Diplomacy position measures over game records, on the ``diplomacy`` engine.

The CLI and the web app import only the names listed in ``__all__`` here.
"""

__all__: list[str] = []
