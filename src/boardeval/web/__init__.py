"""The local web app (FastAPI): Catan boards, Morris play-and-explain, Diplomacy charts."""
