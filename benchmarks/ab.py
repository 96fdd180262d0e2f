"""Two minigrad trees against each other: is a change slower?

    python benchmarks/ab.py /tmp/base                 # this tree (B) against /tmp/base (A)
    python benchmarks/ab.py /tmp/base --rounds 20 --workloads per_op,chain

Make the other tree outside the repository, e.g. `git worktree add /tmp/base main`
(or `git archive main | tar -x -C /tmp/base`).  Each round runs one fresh process
per tree, the two in turn (A B, then B A, ...), so a busy machine slows both alike;
each process times the workloads of benchmarks/run.py (this tree's workloads.py, the
same code for both) with its CPU time, after one untimed run, three times, and keeps
the fastest.  The report gives, per
workload, the median over rounds of B's time / A's time in the same round (1.03: B
is 3 % slower), the spread of those ratios, and each tree's median time.
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
WORKLOADS = ("per_op", "chain", "mlp")
REPEATS = 3         # timings per process and workload; the fastest counts


def child(names, chain_ops, with_torch):
    """Runs inside one tree's process: print {workload: seconds per run} as JSON."""
    sys.path.insert(0, str(HERE))
    import workloads
    if with_torch:                 # as benchmarks/run.py: PyTorch's objects are alive too
        try:
            import torch
            torch.set_num_threads(1)
        except ImportError:
            pass
    setups = {"per_op": (lambda: workloads.setup_per_op("minigrad"), 50),
              "chain": (lambda: workloads.setup_chain("minigrad", chain_ops), 1),
              "mlp": (lambda: workloads.setup_mlp("minigrad")[0], 50)}
    import minigrad
    result = {"minigrad": str(pathlib.Path(minigrad.__file__).parent)}
    for name in names:
        setup, inner = setups[name]
        run = setup()
        run()                                           # warm-up, untimed
        best = float("inf")
        for _ in range(REPEATS):                        # the least disturbed of a few
            start = time.process_time()
            for _ in range(inner):
                run()
            best = min(best, (time.process_time() - start) / inner)
        result[name] = best
    print(json.dumps(result))


def run_tree(tree, args):
    env = dict(os.environ, PYTHONPATH=str(tree), OMP_NUM_THREADS="1",
               OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    argv = [sys.executable, str(HERE / "ab.py"), "--child", "--workloads",
            ",".join(args.workloads), "--chain-ops", str(args.chain_ops)]
    if args.no_torch:
        argv.append("--no-torch")
    out = subprocess.run(argv, env=env, cwd=tree, capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    found = pathlib.Path(result.pop("minigrad")).resolve()
    if found != (pathlib.Path(tree) / "minigrad").resolve():
        raise SystemExit(f"the process for {tree} imported minigrad from {found}")
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", nargs="?", help="the other tree (A); this one is B")
    parser.add_argument("--tree", default=str(HERE.parent), help="tree B (default: this one)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    parser.add_argument("--chain-ops", type=int, default=100_000)
    parser.add_argument("--no-torch", action="store_true",
                        help="do not import PyTorch in the timed processes")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.workloads = args.workloads.split(",")
    if args.child:
        return child(args.workloads, args.chain_ops, not args.no_torch)
    if args.base is None:
        parser.error("give the other tree")
    trees = {"A": pathlib.Path(args.base).resolve(), "B": pathlib.Path(args.tree).resolve()}
    times = {"A": [], "B": []}
    for r in range(args.rounds):
        for label in ("A", "B") if r % 2 == 0 else ("B", "A"):
            times[label].append(run_tree(trees[label], args))
        print(f"  round {r + 1}/{args.rounds}: " + ", ".join(
            f"{w} {times['B'][-1][w] / times['A'][-1][w]:.3f}" for w in args.workloads),
            file=sys.stderr)
    print(f"A = {trees['A']}\nB = {trees['B']}\n{args.rounds} rounds, alternating processes, "
          "CPU time; ratio B / A per round")
    print(f"| workload | median B/A | min–max | A median | B median |\n|---|---|---|---|---|")
    for w in args.workloads:
        ratios = sorted(b[w] / a[w] for a, b in zip(times["A"], times["B"]))
        a = statistics.median(t[w] for t in times["A"])
        b = statistics.median(t[w] for t in times["B"])
        print(f"| {w} | {statistics.median(ratios):.3f} | {ratios[0]:.3f}–{ratios[-1]:.3f} "
              f"| {a * 1e3:.2f} ms | {b * 1e3:.2f} ms |")


if __name__ == "__main__":
    main()
