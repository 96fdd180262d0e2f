"""Regenerate the pictures in assets/ from real minigrad graphs and traces.

    python scripts/make-assets.py

The drawings use minigrad's own layout (engine="python") so that they come
out the same on every machine, with or without graphviz.  The animations
(backward-animation-*.svg) are recorded traces exported by minigrad.viz.export:
one SVG each that plays by itself, also inside an <img> tag on GitHub.
"""
import pathlib

import minigrad as torch
import minigrad.viz

ASSETS = pathlib.Path(__file__).resolve().parent.parent / "assets"


def small_network():
    x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]])
    W = torch.tensor([[0.1, 0.2], [-0.3, 0.4], [0.5, -0.6]], requires_grad=True)
    b = torch.tensor([0.0, 0.1], requires_grad=True)
    loss = ((x @ W + b).relu() ** 2).sum()
    return loss, {"x": x, "W": W, "b": b, "loss": loss}


def lesson_network_trace():
    """The lesson's network, recorded: x * w + b, tanh (saves its output), y * y (saves y
    twice), a hook on y, and backward."""
    x = torch.tensor([1.0, 2.0])
    w = torch.tensor([0.5, -1.0], requires_grad=True)
    b = torch.tensor(0.1, requires_grad=True)
    with minigrad.viz.record() as trace:
        y = (x * w + b).tanh()
        y.register_hook(lambda grad: grad)
        loss = (y * y).sum()
        loss.backward()
    return trace, {"x": x, "w": w, "b": b, "y": y}


def main():
    ASSETS.mkdir(exist_ok=True)
    loss, names = small_network()
    for lang in ("en", "zh"):
        drawing = minigrad.viz.graph(loss, show_shapes=True, lang=lang, engine="python",
                                     names=names)
        path = ASSETS / f"graph-small-network-{lang}.svg"
        drawing.save(path)
        print("wrote", path.relative_to(ASSETS.parent))
    trace, names = lesson_network_trace()
    for lang in ("en", "zh"):
        path = minigrad.viz.export(trace, ASSETS / f"backward-animation-{lang}.svg", lang=lang,
                                   seconds_per_frame=1.2, names=names)
        print("wrote", path.relative_to(ASSETS.parent))


if __name__ == "__main__":
    main()
