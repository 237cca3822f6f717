"""Tests of boardeval.morris.tuning (the room of the same name)."""
