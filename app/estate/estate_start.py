"""What the Estate window shows before an estate is open (issue 23.12: View › Estate
showed an empty table and a bare 0–1 plot): what an estate is, Open Estate…, and the
demo estate, one click away."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

DEMO_ESTATE = "site_loss.toml"
"""The shipped demo estate (in `core.paths.estates_dir()`)."""

TEXT = (
    "<h3>No estate open</h3>"
    "<p>An estate is many databases recovered at once after a site loss, sharing tape "
    "drives, media servers and links. An estate file lists the databases (each a scenario "
    "file), their tiers and RTOs, and the shared hardware (docs/estate.md).</p>"
    "<p>Open one, or the demo: eight databases behind one LTO-8 library and two media "
    "servers.</p>"
)


class EstateStartPage(QWidget):
    open_requested = Signal()
    demo_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        text = QLabel(TEXT)
        text.setObjectName("estateStartText")
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.RichText)
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(text)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.open_button = QPushButton("Open Estate…")
        self.open_button.clicked.connect(self.open_requested)
        self.demo_button = QPushButton("Open the Demo Estate")
        self.demo_button.setToolTip("The shipped demo: data/estates/site_loss.toml")
        self.demo_button.clicked.connect(self.demo_requested)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.demo_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addStretch(2)
