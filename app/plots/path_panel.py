"""Path: each stage's capacity in data bytes/s, restore and backup direction, with the
bottleneck highlighted (DESIGN §3.1–3.2)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from rtoplanner.core.engine.path import CHANNELS_LABEL, PathModel, StageCapacity
from rtoplanner.core.units import format_rate
from rtoplanner.core.wording import plural, stage_kind_words

from .common import (
    HoverTip,
    PlanPanel,
    axis_title,
    category_axis,
    mkpen,
    rate_unit,
    right_room,
    text_item,
)

BAR = 0.36


def shown_capacity(model: PathModel, st: StageCapacity) -> float:
    """What a stage lets through with the path's channels running (core's figure)."""
    return model.capacity_at_Bps(st.index)


def row_label(restore: StageCapacity, backup: StageCapacity) -> str:
    """A row's name: the stage's, or for the compression CPU both directions' work (a
    restore decompresses, a backup compresses)."""
    if restore.label == backup.label:
        return restore.label
    return restore.label.replace("decompression", "(de)compression")


def units_line(model: PathModel, st: StageCapacity, fmt) -> str:
    """How the stage's figure is made, as the PDF's appendix writes it."""
    if st.per_core:
        n = min(model.active_channels, st.count)
        return (
            f"min({model.active_channels} channels, {st.count} cores) = {n} × "
            f"{fmt(st.unit_Bps)} per core = {fmt(shown_capacity(model, st))} of data"
        )
    if st.per_channel_only:
        return f"Per channel: {fmt(st.unit_Bps)}; {model.active_channels} active channels"
    return f"{st.count} × {fmt(st.unit_Bps)} = {fmt(st.total_Bps)} of data"


class PathPanel(PlanPanel):
    title = "Path"

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.plot = self.new_plot()
        item = self.plot.getPlotItem()
        item.getViewBox().invertY(True)
        item.showGrid(x=True, y=False, alpha=self.theme.grid_alpha)
        self.restore_bars = pg.BarGraphItem(x0=[], y=[], width=[], height=BAR)
        self.backup_bars = pg.BarGraphItem(x0=[], y=[], width=[], height=BAR)
        self.plot.addItem(self.restore_bars)
        self.plot.addItem(self.backup_bars)
        self.restore_line = pg.InfiniteLine(angle=90, movable=False)
        self.backup_line = pg.InfiniteLine(angle=90, movable=False)
        self.plot.addItem(self.restore_line)
        self.plot.addItem(self.backup_line)
        self.labels: list[pg.TextItem] = []
        self.rows: list[tuple[str, StageCapacity | None, StageCapacity | None]] = []
        self.factor = 1.0
        self.top = 1.0
        self.plot.getPlotItem().getViewBox().sigResized.connect(self._fit_x)
        self.add_plot(self.plot)
        self.finish_layout()
        self.hover = HoverTip(self.plot, self.text_at)

    def _label(self, i: int) -> pg.TextItem:
        while len(self.labels) <= i:
            label = text_item(self.theme.foreground, anchor=(0, 0.5))
            self.plot.addItem(label)
            self.labels.append(label)
        return self.labels[i]

    def _fit_x(self, *_args) -> None:
        """The x range: the widest bar, and room right of each bar for its figure."""
        placed = [(lab.pos().x(), lab) for lab in self.labels]
        self.plot.setXRange(0, right_room(self.plot, placed, self.top * 1.35), padding=0)

    def redraw(self) -> None:
        plan = self.plan
        assert plan is not None
        th = self.theme
        restore, backup = plan.restore_path, plan.backup_path
        # Rows: the stages, plus "RMAN channels" when the channel count is the limit.
        rows: list[tuple[str, StageCapacity | None, StageCapacity | None]] = [
            (f"{i + 1}. {row_label(r, b)}", r, b)
            for i, (r, b) in enumerate(zip(restore.stages, backup.stages, strict=True))
        ]
        channel_row = restore.bottleneck_index is None or backup.bottleneck_index is None
        if channel_row:
            rows.append((f"RMAN channels ({restore.channels})", None, None))
        self.rows = rows
        values_r = [shown_capacity(restore, r) if r else restore.rate_Bps for _, r, _ in rows]
        values_b = [shown_capacity(backup, b) if b else backup.rate_Bps for _, _, b in rows]
        finite = [v for v in values_r + values_b if np.isfinite(v)]
        unit, factor = rate_unit(max(finite or [1.0]), self.binary)
        self.factor = factor
        n = len(rows)
        ys = np.arange(n, dtype=float)
        r_idx = restore.bottleneck_index if restore.bottleneck_index is not None else n - 1
        b_idx = backup.bottleneck_index if backup.bottleneck_index is not None else n - 1

        def brushes(index: int, base: str) -> list:
            return [pg.mkBrush(th.bottleneck if i == index else base) for i in range(n)]

        self.restore_bars.setOpts(
            x0=np.zeros(n), y=ys - BAR / 2, width=np.array(values_r) / factor, height=BAR,
            brushes=brushes(r_idx, th.accent), pens=[mkpen(th.background, 1)] * n,
        )  # fmt: skip
        self.backup_bars.setOpts(
            x0=np.zeros(n), y=ys + BAR / 2, width=np.array(values_b) / factor, height=BAR,
            brushes=brushes(b_idx, th.backup), pens=[mkpen(th.background, 1)] * n,
        )  # fmt: skip
        self.restore_bars.opts["brush"] = pg.mkBrush(th.accent)
        self.backup_bars.opts["brush"] = pg.mkBrush(th.backup)
        category_axis(self.plot, [label for label, _, _ in rows])
        # The key in the axis title: a legend inside the plot covered the first stage's
        # figures, and on a short plot (1024 × 700) squeezed the rows (issue 23.7).
        key = (
            f"<span style='color:{th.accent}'>■</span> restore "
            f"<span style='color:{th.backup}'>■</span> backup"
        )
        axis_title(self.plot, "bottom", f"Capacity, data bytes/s ({unit}): {key}",
                   f"Data bytes/s ({unit}): {key}", f"{unit} of data: {key}")  # fmt: skip

        for i, label in enumerate(self.labels):
            label.setVisible(i < 2 * n)
        for i in range(n):
            for j, (values, y, idx) in enumerate(
                ((values_r, i - BAR / 2, r_idx), (values_b, i + BAR / 2, b_idx))
            ):
                label = self._label(2 * i + j)
                label.setText(
                    format_rate(values[i], binary=self.binary)
                    + ("  ◀ bottleneck" if i == idx else "")
                )
                label.setColor(th.bottleneck if i == idx else th.foreground)
                label.setPos(values[i] / factor, y)
                label.show()

        self.restore_line.setPos(restore.rate_Bps / factor)
        self.restore_line.setPen(mkpen(th.accent, 1.5, Qt.PenStyle.DashLine))
        self.backup_line.setPos(backup.rate_Bps / factor)
        self.backup_line.setPen(mkpen(th.backup, 1.5, Qt.PenStyle.DotLine))
        self.top = max(finite or [1.0]) / factor
        self._fit_x()
        self.plot.setYRange(-0.6, n - 0.4, padding=0)

        self.headline.setText(
            f"Restore {format_rate(restore.rate_Bps, binary=self.binary)}, limited by "
            f"<span style='color:{th.bottleneck}'>{restore.bottleneck}</span>; backup "
            f"{format_rate(backup.rate_Bps, binary=self.binary)}, limited by "
            f"<span style='color:{th.bottleneck}'>{backup.bottleneck}</span>"
        )
        self.note.setText(
            f"Restore: {restore.explain()}.<br>Backup: {backup.explain()}.<br>"
            f"{restore.active_channels} of {plural(restore.channels, 'channel')} can stream "
            "at once. "
            "Dashed/dotted lines: the steady rate of the whole path. "
            "A per-channel stage is drawn times the active channels."
        )

    def text_at(self, x: float, y: float) -> str:
        row = round(y)
        if not (0 <= row < len(self.rows)) or self.plan is None:
            return ""
        _label, r, b = self.rows[row]
        st = r if y < row else b
        direction = "restore" if y < row else "backup"
        model = self.plan.restore_path if y < row else self.plan.backup_path
        if st is None:
            return (
                f"<b>{CHANNELS_LABEL}</b>: {plural(model.channels, 'RMAN channel')} × "
                f"{format_rate(model.per_channel_Bps, binary=self.binary)} = "
                f"{format_rate(model.rate_Bps, binary=self.binary)} ({direction})"
            )
        fmt = lambda v: format_rate(v, binary=self.binary)  # noqa: E731
        lines = [
            f"<b>{st.label}</b> — {stage_kind_words(st.kind)}, {direction} direction",
            units_line(model, st, fmt),
            f"Carries {st.carries} bytes"
            + ("; binds one channel per unit" if st.binds_channel else ""),
            f"Source: {st.source}",
        ]
        if model.bottleneck_index == st.index:
            lines.append(f"<b>Bottleneck</b>: {model.explain()}")
        return "<br>".join(lines)
