"""One training step of an MLP on the GPU: minigrad on CuPy, minigrad on numpy, PyTorch.

    python benchmarks/gpu_mlp.py                  # widths 128 and 2048
    python benchmarks/gpu_mlp.py --widths 256 4096 --steps 30

For each width it times a step (forward, cross-entropy loss, backward, SGD update) of
the same 3-layer MLP, written once and run by minigrad on "cuda", minigrad on "cpu"
(numpy) and, where PyTorch with CUDA is installed, PyTorch on the same GPU; then prints
the ratios.  It also reports the GPU memory that `save_on_cpu()` keeps free during a
forward pass (CuPy's memory pool, `minigrad.cuda.memory_allocated()`).

What to expect: at a small width every step is a few dozen small kernel launches, and
Python's per-op cost dominates; at a large width the matrix products dominate and the
GPU pulls ahead of numpy by a wide margin.  minigrad's per-op cost in Python is higher
than PyTorch's C++ dispatcher, so the torch-cuda ratio shrinks as the width grows.

Without CuPy or a GPU it says so and exits 0.  `--smoke` runs the script on the
numpy-backed fake CuPy of the test suite (tests/fake_cupy.py): it checks the script,
and its timings mean nothing.
"""
import argparse
import pathlib
import sys
import time

import numpy as np

import minigrad

BATCH, INPUTS, CLASSES, LR = 256, 256, 10, 0.01


def make_model(lib, width, device, seed=0):
    """Weights and a batch on `device`, the same numbers for every library."""
    rng = np.random.default_rng(seed)
    shapes = [(INPUTS, width), (width,), (width, width), (width,), (width, CLASSES), (CLASSES,)]
    params = [lib.tensor(rng.standard_normal(s).astype(np.float32) * 0.05, device=device,
                         requires_grad=True) for s in shapes]
    x = lib.tensor(rng.standard_normal((BATCH, INPUTS)).astype(np.float32), device=device)
    onehot = np.eye(CLASSES, dtype=np.float32)[rng.integers(0, CLASSES, BATCH)]
    return params, x, lib.tensor(onehot, device=device)


def forward(params, x, onehot):
    """The MLP and its cross-entropy loss, written once for minigrad and PyTorch alike."""
    w1, b1, w2, b2, w3, b3 = params
    h = (x @ w1 + b1).relu()
    h = (h @ w2 + b2).relu()
    logits = h @ w3 + b3
    return -(logits.log_softmax(1) * onehot).sum(1).mean()


def train_step(lib, params, x, onehot):
    loss = forward(params, x, onehot)
    loss.backward()
    with lib.no_grad():
        for p in params:
            p.sub_(p.grad * LR)
            p.grad = None
    return loss


def seconds_per_step(lib, width, device, steps, synchronize):
    params, x, onehot = make_model(lib, width, device)
    for _ in range(3):                                   # warm-up: kernels, memory pools
        train_step(lib, params, x, onehot)
    synchronize()
    start = time.perf_counter()
    for _ in range(steps):
        loss = train_step(lib, params, x, onehot)
    synchronize()
    elapsed = (time.perf_counter() - start) / steps
    if not np.isfinite(loss.item()):
        raise RuntimeError(f"{lib.__name__} on {device}: the loss is not finite")
    return elapsed


def saved_bytes(width, use_save_on_cpu):
    """GPU bytes held after a forward pass, beyond the weights and the batch."""
    params, x, onehot = make_model(minigrad, width, "cuda")
    before = minigrad.cuda.memory_allocated()
    if use_save_on_cpu:
        with minigrad.autograd.graph.save_on_cpu(pin_memory=True):
            loss = forward(params, x, onehot)
    else:
        loss = forward(params, x, onehot)
    held = minigrad.cuda.memory_allocated() - before
    loss.backward()
    return held


def torch_cuda():
    """PyTorch, if it is installed with a usable GPU; else None."""
    try:
        import torch
    except ImportError:
        return None
    return torch if torch.cuda.is_available() else None


def use_fake_cupy():
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
    import fake_cupy
    minigrad.backend._cupy, minigrad.backend._cupyx = fake_cupy, fake_cupy.cupyx


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--widths", type=int, nargs="+", default=[128, 2048])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--smoke", action="store_true",
                        help="run on the fake CuPy of the tests (checks the script only)")
    args = parser.parse_args(argv)
    if args.smoke:
        use_fake_cupy()
        args.widths, args.steps = [16, 32], 2
    if not minigrad.cuda.is_available():
        print("No GPU: minigrad.cuda.is_available() is False (CuPy with a CUDA GPU is needed: "
              'pip install "minigrad-tutor[cuda]" on a GPU machine). Nothing to compare; exiting.')
        return 0
    torch = None if args.smoke else torch_cuda()
    print(f"MLP {INPUTS} -> width -> width -> {CLASSES}, batch {BATCH}, float32, "
          f"{args.steps} steps" + ("  [SMOKE: fake CuPy, timings meaningless]" if args.smoke else ""))
    if torch is None:
        print("(PyTorch with CUDA not found: the torch-cuda column is left out)")
    header = f"{'width':>6} {'minigrad cuda':>14} {'minigrad numpy':>15} {'numpy/cuda':>11}"
    print(header + (f" {'torch cuda':>11} {'minigrad/torch':>15}" if torch else ""))
    for width in args.widths:
        gpu = seconds_per_step(minigrad, width, "cuda", args.steps, minigrad.cuda.synchronize)
        cpu = seconds_per_step(minigrad, width, "cpu", args.steps, lambda: None)
        line = f"{width:>6} {gpu * 1e3:>11.2f} ms {cpu * 1e3:>12.2f} ms {cpu / gpu:>10.1f}x"
        if torch is not None:
            ref = seconds_per_step(torch, width, "cuda", args.steps, torch.cuda.synchronize)
            line += f" {ref * 1e3:>8.2f} ms {gpu / ref:>14.1f}x"
        print(line)
    width = args.widths[-1]
    plain, on_host = saved_bytes(width, False), saved_bytes(width, True)
    print(f"width {width}: a forward pass holds {plain / 2**20:.2f} MiB of GPU memory for "
          f"backward; with save_on_cpu(pin_memory=True) {on_host / 2**20:.2f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
