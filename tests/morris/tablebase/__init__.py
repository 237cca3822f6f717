"""Tests of boardeval.morris.tablebase (the room of the same name)."""
