"""Where a class's replica memory is (the class bench's --memory): after each page opened, each wave and a
final malloc_trim, the server's own figures (harness/memory_probe.py), one line each, in MiB:

    rss        resident
    writings   the sessions' Writings as their budget counts them (held.SESSIONS), and how many are held
    beside     what the sessions' states and fragments hold beside their Writings (arrays + tensors + objects)
    caches     shelf + long heads + head views' payloads
    in use     glibc's bytes in use (every arena and mmapped block), `free` the bytes free inside its arenas,
               `arenas` how many, `system` the arenas' bytes from the system

    python -m bench class --browsers 12 --words 3 --memory
"""

from __future__ import annotations

MIB = 2**20


def mib(x: float) -> int:
    return round(x / MIB)


def line(label: str, snap: dict) -> str:
    if "error" in snap:
        return f"  {label:<14} probe failed: {snap['error']}"
    s, m, c = snap["sessions"], snap["malloc"], snap["caches"]
    beside = s["arrays"] + s["tensors"] + s["objects"]
    return (f"  {label:<14} rss {mib(snap['rss']):>5}  writings {mib(snap['writings']):>5} ({snap['writings_n']:>2})"
            f"  beside {mib(beside):>4} ({s['sessions']} sessions)  caches {mib(sum(c.values())):>4}"
            f"  in use {mib(m['in_use']):>5}  free {mib(m['free_in_arenas']):>5}  arenas {m['arenas']:>2}"
            f"  system {mib(m['from_system']):>5}  threads {snap['threads']}"
            + (f"  (malloc_trim took {snap['trim_s'] * 1000:.0f} ms)" if snap.get("trim_s") is not None else ""))


def per_session(snaps: list[tuple[str, dict]]) -> dict[str, float]:
    """MiB per opened session, from the first to the last page opened: RSS, Writings, the rest."""
    opened = [(label, s) for label, s in snaps if label.startswith("opened") and "error" not in s]
    if len(opened) < 2:
        return {}
    (_, a), (_, b) = opened[0], opened[-1]
    n = b["sessions"]["sessions"] - a["sessions"]["sessions"]
    if n <= 0:
        return {}
    rss, writings = (b["rss"] - a["rss"]) / n / MIB, (b["writings"] - a["writings"]) / n / MIB
    in_use = (b["malloc"]["in_use"] - a["malloc"]["in_use"]) / n / MIB
    return {"rss_mib": round(rss, 1), "writing_mib": round(writings, 1), "malloc_in_use_mib": round(in_use, 1),
            "rss_beside_writing_mib": round(rss - writings, 1)}
