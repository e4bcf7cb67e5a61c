"""A default per-channel ceiling for disk and NFS paths (model v3, DESIGN §10).

Restores scale with channels where a channel limits them. A path of tape drives binds one
channel per drive, a `channel` stage states what one channel moves, an object-storage
stage is what one channel gets, and a `measured` stage stands for the whole path; a path
of disks and NAS heads says nothing about one channel. Without a ceiling the engine could
only take a channel running alone (the largest file, the last channels of a job) to get
1/n of the path, and n channels to fill any array. Instead such a path gets a **class
default**: one RMAN channel moves at most `DISK_CHANNEL_BPS` of data, the figure Oracle
published for one channel, with a prior (data/catalog/priors.toml, `default.backup.channel_rate`)
that the risk run draws. It is visible — a ledger row "RMAN channel ceiling (class
default)", a risk input `backup.channel_rate` — and a `channel` stage with a measured
rate replaces it.

The loader sets `Backup.channel_rate_Bps` (and its source) when `default_channel_rate`
applies to the path; the engine applies it while it still does (an edit that adds a
`channel` stage or swaps a disk for a tape drive drops it). This module is numpy-free.
"""

from __future__ import annotations

from collections.abc import Sequence

from .fields import PER_CHANNEL_KINDS
from .model import Stage

DISK_CHANNEL_BPS = 400e6
"""Data bytes/s one RMAN channel moves on a disk or NFS path (class default)."""

DISK_CHANNEL_SOURCE = (
    "class default, Oracle MAA 'Tape Backup Performance and Best Practices for Exadata "
    "Storage and the HP Oracle Database Machine' (2009), 'Configure one RMAN channel per "
    "tape drive': 'A single RMAN channel in an HP Oracle Database Machine can stream data "
    "at a throughput rate of 400 MB/sec or greater'"
)
NFS_CHANNEL_SOURCE = (
    DISK_CHANNEL_SOURCE + "; ⚠ carried over to NFS: no published rate of one RMAN channel "
    "over NFS was found. Consistent with the ZFS Storage Appliance Administration Guide "
    "OS8.6.x (Sep 2016), 'Configuring Oracle RMAN': 16 channels spanning the shares of two "
    "heads, about 300 MB/s a channel at this catalog's 2.5 GB/s a head"
)

LIMITS_A_CHANNEL = PER_CHANNEL_KINDS | {"measured", "tape_drive", "media_server",
                                        "backup_appliance"}  # fmt: skip
"""Stage kinds that already say what one channel gets (or stand for the whole path, or
reach the media through a media manager, whose channels the default does not describe)."""

MEDIA = ("nas_head", "disk")
"""The paths the default is for, NFS first (its source is the weaker)."""


def default_channel_rate(path: Sequence[Stage]) -> tuple[float, str] | None:
    """(data bytes/s, source) of the default ceiling of one RMAN channel on this path;
    None when a stage already limits one channel, when the path is reached through a
    media manager (SBT), or when it has no disk or NAS head."""
    if any(st.binds_channel or st.kind in LIMITS_A_CHANNEL for st in path):
        return None
    kinds = {st.kind for st in path}
    if "nas_head" in kinds:
        return DISK_CHANNEL_BPS, NFS_CHANNEL_SOURCE
    if "disk" in kinds:
        return DISK_CHANNEL_BPS, DISK_CHANNEL_SOURCE
    return None


__all__ = ["DISK_CHANNEL_BPS", "LIMITS_A_CHANNEL", "MEDIA", "default_channel_rate"]
