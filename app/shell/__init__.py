"""The main window's shell: how views register (`registry`), how they are installed in a
window (`views`), the banner and status bar (`banner`), and the shell's own commands
(`files`, `commands`). See `registry.py` for the API a new view uses."""
