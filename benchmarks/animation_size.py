"""How big an animation is: a 30-layer MLP's training step, exported and as a player.

    python benchmarks/animation_size.py [--layers 30]

Prints the number of frames, the size of all frames drawn one by one (what the
animated SVG and the player's saved state held when each step was a whole
picture: 37 MB for this step), the animated SVG of `minigrad.viz.export`, and
the saved widget state of `minigrad.viz.animate` (what a page with no kernel
loads).  Both now grow with the graph and with what changes between steps;
tests/test_viz_export.py checks the export against the size of one frame.
"""
import argparse
import json
import pathlib
import tempfile

import minigrad as torch
import minigrad.viz as viz


def mlp_trace(layers=30, width=8, batch=4):
    """One training step of a `layers`-deep tanh MLP, recorded from forward to the last
    gradient (305 frames for 30 layers)."""
    torch.manual_seed(0)
    weights = [torch.randn(width, width, requires_grad=True) for _ in range(layers)]
    x = torch.randn(batch, width)
    with viz.record() as trace:
        h = x
        for weight in weights:
            h = (h @ weight).tanh()
        h.sum().backward()
    return trace


def measure(layers=30):
    story = viz.frames(mlp_trace(layers))
    sizes = {"frames": len(story),
             "one frame": max(len(f.svg.encode()) for f in story),
             "every frame drawn whole": sum(len(f.svg.encode()) for f in story)}
    with tempfile.TemporaryDirectory() as folder:
        sizes["animated SVG"] = viz.export(story, pathlib.Path(folder) / "a.svg").stat().st_size
    try:
        from ipywidgets import embed
    except ImportError:
        return sizes
    player = viz.animate(mlp_trace(layers))
    sizes["player's widget state"] = len(json.dumps(embed.dependency_state([player])).encode())
    return sizes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=30)
    args = parser.parse_args()
    sizes = measure(args.layers)
    print(f"{args.layers}-layer MLP step: {sizes.pop('frames')} frames")
    for what, size in sizes.items():
        print(f"  {what:28} {size / 1e6:8.2f} MB")


if __name__ == "__main__":
    main()
