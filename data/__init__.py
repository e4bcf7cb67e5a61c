"""The shipped data (catalog, demos): a package only so importlib.resources finds it."""
