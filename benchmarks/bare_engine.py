"""How fast can a Python engine be?  The leanest reverse mode against minigrad and PyTorch.

    python benchmarks/bare_engine.py            # per-op and chain workloads, ~1 minute
    python benchmarks/bare_engine.py --quick    # a 10,000-op chain, fewer rounds

`Bare` below is reverse-mode autograd at its barest: a tensor is an array, a
backward function, its inputs and what the backward needs, in five slots; backward
counts dependencies, then runs each node once.  It has none of what PyTorch's
semantics ask for (and minigrad has): no nodes users can see, hooks,
version counters, saved-tensor hooks, grad modes, dtype promotion, broadcasting
rules, checks of what a backward returns, or PyTorch's errors.  It runs only the
ops of run.py's per-op and chain workloads.

What it measures is the floor for any engine that keeps one Python object per
node: the part of minigrad's time above it is what the semantics cost, the part
of Bare's time is what Python itself costs.  Same timing as run.py: the engines
take turns, ratios to PyTorch are paired per round, CPU time, one thread.
"""
import argparse
import pathlib
import statistics
import sys

import numpy as np


class Bare:
    """A tensor and its node in one object: data, backward function, inputs, saved."""

    __slots__ = ("data", "backward_fn", "inputs", "saved", "grad")

    def __init__(self, data, backward_fn=None, inputs=(), saved=None):
        self.data, self.backward_fn, self.inputs, self.saved = data, backward_fn, inputs, saved
        self.grad = None

    def __mul__(self, other):
        if isinstance(other, Bare):
            return Bare(self.data * other.data, _mul_backward, (self, other), (self.data, other.data))
        return Bare(self.data * other, _scale_backward, (self,), other)

    def __add__(self, other):
        return Bare(self.data + other, _shift_backward, (self,))

    def __sub__(self, other):
        return Bare(self.data - other.data, _sub_backward, (self, other))

    def tanh(self):
        out = np.tanh(self.data)
        return Bare(out, _tanh_backward, (self,), out)

    def sum(self):
        return Bare(self.data.sum(), _sum_backward, (self,), self.data.shape)

    def backward(self):
        pending, stack = {}, [self]           # how many edges point at each tensor
        while stack:
            for child in stack.pop().inputs:
                seen = id(child) in pending
                pending[id(child)] = pending.get(id(child), 0) + 1
                if not seen:
                    stack.append(child)
        grads, ready = {id(self): np.ones_like(self.data)}, [self]
        while ready:
            tensor = ready.pop()
            grad = grads.pop(id(tensor))
            if tensor.backward_fn is None:    # a leaf
                tensor.grad = grad if tensor.grad is None else tensor.grad + grad
                continue
            for child, child_grad in zip(tensor.inputs, tensor.backward_fn(grad, tensor.saved)):
                key = id(child)
                grads[key] = child_grad if key not in grads else grads[key] + child_grad
                pending[key] -= 1
                if pending[key] == 0:
                    ready.append(child)


def _mul_backward(g, saved):
    a, b = saved
    return g * b, g * a


def _scale_backward(g, factor):
    return (g * factor,)


def _shift_backward(g, _):
    return (g,)


def _sub_backward(g, _):
    return g, -g


def _tanh_backward(g, out):
    return (g * (1 - out * out),)


def _sum_backward(g, shape):
    return (np.broadcast_to(g, shape),)


# --- what workloads.py asks of an engine: tensor() and the dtypes ----------------------

def tensor(data, dtype=np.float32, requires_grad=False):
    """A leaf (every Bare tensor can take a gradient: requires_grad is ignored)."""
    return Bare(np.array(data, dtype=dtype))


float32, float64 = np.float32, np.float64


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    import run                                # run.py's timing, and its workloads
    import workloads
    run._limit_threads(1)
    engines = run.available_engines(("bare", "minigrad", "torch"))
    chain_ops = 10_000 if args.quick else 100_000
    rounds = 5 if args.quick else 11
    plans = [("per-op cost: 200 elementwise ops, 16 float64", workloads.setup_per_op, 20, 200),
             (f"chain of {chain_ops:,} ops, 1 element",
              lambda e: workloads.setup_chain(e, chain_ops), 1, chain_ops)]
    reference = "torch" if "torch" in engines else "minigrad"
    print(f"| workload | {' | '.join(engines)} |")
    print("|---" * (len(engines) + 1) + "|")
    for title, setup, inner, per in plans:
        collector = {}
        times = run.interleaved({e: setup(e) for e in engines},
                                rounds if inner > 1 else max(3, rounds // 3), inner, collector)
        ratios = run.paired_ratios(times, reference)
        cells = [f"{ratios[e]:.2f}× ({statistics.median(times[e]) / per * 1e6:.1f} µs/op, "
                 f"GC {statistics.median(collector[e]):.0%})" for e in engines]
        print(f"| {title} | {' | '.join(cells)} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
