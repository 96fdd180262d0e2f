"""Seams: where the layers built on the core join in while one of their modes is on.

The core is what the lessons teach.  PyTorch adds modes around it (anomaly detection,
forward-mode AD, inference tensors) and the tutor adds a recorder that listens to it.
Those layers are built on the core, so the core does not import them.  Instead, while
one of them is on, it plugs an object in here (`plug`), and the core calls it, each
call behind `if seams.<name> is not None`: while every mode is off, the core runs as
if they did not exist.

    anomaly      detect_anomaly() is on            minigrad/surface/anomaly.py
    forward_ad   a dual level is open              minigrad/surface/forward_ad.py
    inference    inference_mode() was entered      minigrad/surface/inference.py
    recorder     minigrad.tracing.record() runs    the Trace being recorded

What each is asked is written where the core asks it.
"""
anomaly = None
forward_ad = None
inference = None
recorder = None


def plug(name, layer):
    """Plug `layer` into the seam `name` (None unplugs it); returns what was there.

    Example::

        >>> from minigrad.core import seams
        >>> previous = seams.plug("recorder", None)
        >>> seams.recorder is None
        True
    """
    if name not in _SEAMS:
        raise ValueError(f"no seam named {name!r}: the seams are {', '.join(_SEAMS)}")
    previous = globals()[name]
    globals()[name] = layer
    return previous


_SEAMS = ("anomaly", "forward_ad", "inference", "recorder")
