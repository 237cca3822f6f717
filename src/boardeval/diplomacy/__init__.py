"""diplomacy package (public API exported here)."""

__all__: list[str] = []
