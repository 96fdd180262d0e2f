"""minigrad against the hand-written numpy floor and PyTorch.

    python benchmarks/run.py            # the full run (a few minutes)
    python benchmarks/run.py --quick    # fewer rounds, a 10,000-op chain
    python benchmarks/run.py --quick --smoke       # tiny sizes: proves it runs
    python benchmarks/run.py --plot assets/perf-vs-pytorch.png --json out.json
    python benchmarks/run.py --million  # also: a 1,000,000-op chain, once

Timing: the engines take turns (round 1: A B C, round 2: B C A, ...), so a
busy or throttled machine slows them all alike, and each round gives a
ratio engine / PyTorch.  The clock is the process's CPU time (`--clock cpu`,
the default): on a machine shared with other jobs it counts only this
process's work; `--clock wall` measures elapsed time instead.  The table shows the median of those paired ratios
(the median time per engine in brackets).  Only ratios from one run are
comparable.  PyTorch, MyGrad and HIPS autograd run when importable; without
PyTorch the ratios are against the numpy floor.

Memory: each engine runs the 50-layer case in a fresh process; RSS is read
from /proc (peak during backward through VmHWM after resetting it), with
glibc told to return big blocks at once so that RSS follows what is live.
BLAS and PyTorch use one thread (`--threads`), as the shared machines allow.
"""
import argparse
import gc
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ENGINES = ("minigrad", "numpy", "torch", "mygrad", "autograd")
LABELS = {"minigrad": "minigrad", "numpy": "numpy floor (by hand)", "torch": "PyTorch (CPU)",
          "mygrad": "MyGrad", "autograd": "HIPS autograd"}
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
clock = CLOCKS["cpu"]


def _limit_threads(n):
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, str(n))


def _workloads():
    sys.path.insert(0, str(HERE))
    import workloads
    return workloads


def available_engines(wanted=ENGINES):
    workloads = _workloads()
    found = [e for e in wanted if workloads.import_engine(e) is not None]
    if "torch" in found:
        import torch
        torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))
    return found


def interleaved(runners, rounds, inner, collector=None):
    """Time each runner `inner` times per round, engines in rotating order.
    Returns {engine: [seconds per call, one per round]}.  Given a dict `collector`,
    also fills it with {engine: [share of each round's wall time that Python's
    garbage collector ran]} (bare_engine.py reports it)."""
    names = list(runners)
    times = {name: [] for name in names}
    for name in names:                      # warm-up, untimed
        runners[name]()
    in_gc = _CollectorTime()
    if collector is not None:
        collector.update({name: [] for name in names})
        gc.callbacks.append(in_gc)
    try:
        for r in range(rounds):
            order = names[r % len(names):] + names[:r % len(names)]
            for name in order:
                in_gc.seconds, wall, start = 0.0, time.perf_counter(), clock()
                for _ in range(inner):
                    runners[name]()
                times[name].append((clock() - start) / inner)
                if collector is not None:
                    collector[name].append(in_gc.seconds / (time.perf_counter() - wall))
    finally:
        if collector is not None:
            gc.callbacks.remove(in_gc)
    return times


class _CollectorTime:
    """A gc.callbacks entry that adds up the seconds the garbage collector runs."""

    def __init__(self):
        self.seconds, self._started = 0.0, 0.0

    def __call__(self, phase, info):
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started


def paired_ratios(times, reference):
    """Median over rounds of time / reference time in the same round."""
    ref = times[reference]
    return {name: statistics.median(t / r for t, r in zip(series, ref))
            for name, series in times.items()}


def time_workloads(engines, args):
    w = _workloads()
    sizes = dict(batch=8, sizes=(20, 16, 16, 4)) if args.smoke else {}
    chain_ops = 200 if args.smoke else 10_000 if args.quick else 100_000
    plans = {
        "per_op": ("per-op cost: 200 elementwise ops, 16 float64, fwd+bwd",
                   lambda e: w.setup_per_op(e), 5 if args.smoke else 20, w.PER_OP_OPS),
        "mlp": (("tiny MLP (smoke)" if args.smoke else "MLP 784-256-256-10, batch 128")
                + ", float32: fwd+bwd+SGD",
                lambda e: w.setup_mlp(e, **sizes)[0], 3 if args.smoke else 5, 1),
        "chain": (f"chain of {chain_ops:,} ops on a 1-element tensor, fwd+bwd",
                  lambda e: w.setup_chain(e, chain_ops), 1, chain_ops),
    }
    results = {}
    for key, (title, setup, inner, per) in plans.items():
        runners = {}
        for engine in engines:
            try:
                runners[engine] = setup(engine)
            except (AttributeError, TypeError, NotImplementedError) as exc:
                print(f"  ({engine} cannot run {key}: {exc})", file=sys.stderr)
        rounds = 3 if args.smoke else (args.rounds or (5 if args.quick else 15))
        if key == "chain":
            rounds = max(3, rounds // 3)
        times = interleaved(runners, rounds, inner)
        reference = "torch" if "torch" in times else "numpy"
        results[key] = {"title": title, "reference": reference, "unit_ops": per,
                        "ratio": paired_ratios(times, reference),
                        "floor_ratio": paired_ratios(times, "numpy"),
                        "seconds": {e: statistics.median(t) for e, t in times.items()}}
        print(f"  done: {title}", file=sys.stderr)
    return results


# --- memory: one fresh process per engine ---------------------------------------------

def _proc_kib(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def memory_child(engine, size, layers):
    """Runs in the child: print {point: MiB above the baseline} as JSON."""
    w = _workloads()
    marks = {}

    def mark(label):
        if label == "backward":
            marks["peak_backward"] = _proc_kib("VmHWM") / 1024 - marks["_base"]
        now = _proc_kib("VmRSS") / 1024
        if label == "baseline":
            marks["_base"] = now
        else:
            marks[label] = now - marks["_base"]
        if label == "forward":              # VmHWM from here on: the backward's peak
            with open("/proc/self/clear_refs", "w") as refs:
                refs.write("5")
    w.memory_layers(engine, size, layers, mark)
    marks.pop("_base")
    print(json.dumps(marks))


def measure_memory(engines, size, layers):
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536", MALLOC_TRIM_THRESHOLD_="0")
    results = {}
    for engine in engines:
        if engine not in ("minigrad", "numpy", "torch"):
            continue
        out = subprocess.run([sys.executable, __file__, "--memory-child", engine,
                              "--memory-size", str(size), "--memory-layers", str(layers)],
                             env=env, capture_output=True, text=True, check=True)
        results[engine] = json.loads(out.stdout.strip().splitlines()[-1])
    return results


# --- reporting ---------------------------------------------------------------------------

def _fmt_seconds(s):
    return f"{s * 1e6:.1f} µs" if s < 1e-3 else f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"


def table(results, memory, engines, size, layers):
    """A Markdown table: ratios against the reference, medians in brackets."""
    head = "| workload | " + " | ".join(engines) + " |"
    lines = [head, "|---" * (len(engines) + 1) + "|"]
    for key, res in results.items():
        cells = []
        for e in engines:
            if e not in res["ratio"]:
                cells.append("—")
                continue
            per = res["seconds"][e] / res["unit_ops"]
            unit = "/op" if res["unit_ops"] > 1 else ""
            cells.append(f"{res['ratio'][e]:.2f}× ({_fmt_seconds(per)}{unit})")
        lines.append(f"| {res['title']} | " + " | ".join(cells) + " |")
    if memory:
        cells = []
        for e in engines:
            m = memory.get(e)
            cells.append("—" if m is None else
                         f"graph {m['forward']:.0f}, peak {m['peak_backward']:.0f}, "
                         f"after {m['backward']:.0f} MiB")
        lines.append(f"| {layers} layers tanh(y*w), {size}×{size} float32: memory above "
                     "baseline | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def checks(memory):
    """What minigrad must keep: PyTorch's memory at each point of the 50-layer case.
    (Speed is kept, not chased: a change is checked against the tree before it with
    benchmarks/ab.py, never more than 5 % slower; the ratios above are for reading.)"""
    rows = []
    if "minigrad" in memory and "torch" in memory:       # (RSS: 1 MiB is noise)
        for point, label in (("forward", "graph memory"), ("peak_backward", "peak in backward"),
                             ("backward", "memory after backward")):
            ours, theirs = memory["minigrad"][point], memory["torch"][point]
            ok = "met" if ours <= theirs + 1 else "MISSED"
            rows.append(f"  {label + f' (PyTorch: {theirs:.1f} MiB)':<42} {ours:7.2f} MiB  "
                        f"(at most PyTorch's + 1 MiB)  {ok}")
    return "\n".join(rows)


def trace_share(per_op_seconds):
    """What an inactive recorder costs: ~5 `tracing.active is not None` checks per op."""
    import timeit
    from minigrad import tracing
    check = min(timeit.repeat("tracing.active is not None", globals={"tracing": tracing},
                              number=200_000, repeat=5)) / 200_000
    return 5 * check / per_op_seconds


def plot(results, path):
    """Bars: minigrad's (and the others') time relative to PyTorch, per workload."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    keys = [k for k in ("per_op", "mlp", "chain") if k in results]
    engines = [e for e in ENGINES if all(e in results[k]["ratio"] for k in keys)]
    fig, ax = plt.subplots(figsize=(7, 3.2), dpi=120)
    width = 0.8 / len(engines)
    for i, engine in enumerate(engines):
        values = [results[k]["ratio"][engine] for k in keys]
        bars = ax.bar([k + i * width for k in range(len(keys))], values, width,
                      label=LABELS[engine])
        ax.bar_label(bars, fmt="%.2f", fontsize=7)
    ax.axhline(1.0, color="gray", linewidth=0.8, linestyle="--")
    ax.set_xticks([k + width * (len(engines) - 1) / 2 for k in range(len(keys))])
    ax.set_xticklabels(["per-op cost\n(16 float64)", "MLP step\n(784-256-256-10)",
                        "chain of ops\n(1 element)"][:len(keys)])
    ax.set_ylabel(f"time / {LABELS[results[keys[0]]['reference']]}\n(median of paired ratios)")
    ax.legend(fontsize=8, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    fig.savefig(path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds, shorter chain")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: only proves it runs")
    parser.add_argument("--rounds", type=int, help="rounds of interleaved timing")
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--threads", type=int, default=1, help="BLAS / PyTorch threads")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    parser.add_argument("--no-memory", action="store_true")
    parser.add_argument("--million", action="store_true", help="also a 1,000,000-op chain")
    parser.add_argument("--plot", help="write a PNG (needs matplotlib: the 'bench' extra)")
    parser.add_argument("--json", help="write the results as JSON")
    parser.add_argument("--memory-child", help=argparse.SUPPRESS)
    parser.add_argument("--memory-size", type=int, default=1000, help=argparse.SUPPRESS)
    parser.add_argument("--memory-layers", type=int, default=50, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    _limit_threads(args.threads)
    global clock
    clock = CLOCKS[args.clock]
    if args.memory_child:
        return memory_child(args.memory_child, args.memory_size, args.memory_layers)
    engines = available_engines(args.engines.split(","))
    import minigrad
    print(f"engines: {', '.join(engines)}; python {sys.version.split()[0]}; "
          f"{os.cpu_count()} CPUs; threads {args.threads}; clock {args.clock}; "
          f"minigrad from {pathlib.Path(minigrad.__file__).parent}", file=sys.stderr)
    results = time_workloads(engines, args)
    size, layers = (64, 5) if args.smoke else (500, 50) if args.quick else (1000, 50)
    memory = {} if args.no_memory else measure_memory(engines, size, layers)
    print(table(results, memory, engines, size, layers))
    print("\nminigrad against PyTorch's memory, and its idle recorder:")
    print(checks(memory))
    share = trace_share(results["per_op"]["seconds"]["minigrad"] / results["per_op"]["unit_ops"])
    print(f"  {'inactive trace recorder, share of an op':<42} {share:7.2%}      (at most 3 %)  "
          f"{'met' if share <= 0.03 else 'MISSED'}")
    if args.million:
        w = _workloads()
        for engine in ("minigrad", "torch"):
            if engine in engines:
                run = w.setup_chain(engine, 1_000_000)
                start = clock()
                run()
                print(f"  1,000,000-op chain, {engine}: {clock() - start:.1f} s")
    if args.plot:
        plot(results, args.plot)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(
            {"results": results, "memory": memory, "trace_share": share}, indent=1))
    return results


if __name__ == "__main__":
    main()
