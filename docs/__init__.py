"""The user guide and documentation: a package only so importlib.resources finds it
(Help › User Guide reads it from the installed package)."""
