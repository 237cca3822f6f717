"""Tests of boardeval.morris._search (the room of the same name)."""
