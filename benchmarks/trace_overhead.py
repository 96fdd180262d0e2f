"""What the engine's narration costs.

    python benchmarks/trace_overhead.py

Prints the time per op (forward + backward of a chain of multiplications)
with no recorder, with a recorder, and the cost of one hook-point check
(`if tracing.active is not None`) - the only thing the engine pays when nobody
records.  Target: the check is under 1% of an op without a recorder.
"""
import time
import timeit

import minigrad as torch
from minigrad import tracing


def per_op_seconds(n, recording):
    x = torch.tensor([1.0], requires_grad=True)
    start = time.perf_counter()
    if recording:
        with tracing.record():
            _chain(x, n)
    else:
        _chain(x, n)
    return (time.perf_counter() - start) / n


def _chain(x, n):
    y = x
    for _ in range(n):
        y = y * 1.0
    y.sum().backward()


def main(n=5000):
    plain = min(per_op_seconds(n, False) for _ in range(3))
    recorded = min(per_op_seconds(n, True) for _ in range(3))
    check = min(timeit.repeat("tracing.active is not None", globals={"tracing": tracing},
                              number=1_000_000, repeat=5)) / 1_000_000
    # hook points visited per op in this chain: apply (1), saved tensor (1), engine (~3)
    share = 5 * check / plain
    print(f"per op, no recorder:    {plain * 1e6:8.2f} us")
    print(f"per op, recording:      {recorded * 1e6:8.2f} us")
    print(f"one hook-point check:   {check * 1e9:8.1f} ns  (~5 per op: {share:.2%} of an op)")
    return share


if __name__ == "__main__":
    main()
