"""benchmarks/run.py runs end to end (tiny sizes): the benchmarks report, they assert nothing
about speed; this only proves the runner, its table and its plot work."""
import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_the_benchmark_runner_works_in_smoke_mode(tmp_path):
    out = tmp_path / "results.json"
    argv = [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--smoke",
            "--json", str(out)]
    try:
        import matplotlib  # noqa: F401
        argv += ["--plot", str(tmp_path / "perf.png")]
    except ImportError:
        pass
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "| workload | minigrad | numpy" in done.stdout
    results = json.loads(out.read_text())
    for key in ("per_op", "mlp", "chain"):
        ratio = results["results"][key]["ratio"]
        assert ratio[results["results"][key]["reference"]] == pytest.approx(1.0)
        assert ratio["minigrad"] > 0
    assert set(results["memory"]["minigrad"]) == {"forward", "peak_backward", "backward"}
    if "--plot" in argv:
        assert (tmp_path / "perf.png").stat().st_size > 1000


def test_every_engine_computes_the_same_mlp_step():
    """The engines run one computation: after one SGD step, minigrad's and the numpy
    floor's parameters agree (and PyTorch's, when installed)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import workloads
    sizes = dict(batch=8, sizes=(12, 10, 10, 3))
    steps = {}
    for engine in ("minigrad", "numpy", "torch"):
        if workloads.import_engine(engine) is None:
            continue
        step, params = workloads.setup_mlp(engine, **sizes)
        step()
        steps[engine] = [p if engine == "numpy" else p.detach().numpy() for p in params]
    for engine, params in steps.items():
        for ours, floor in zip(params, steps["numpy"]):
            assert ours.dtype == floor.dtype == "float32", engine
            assert abs(ours - floor).max() < 1e-5, engine


def test_the_numpy_floor_of_the_per_op_workload_is_the_right_gradient():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import workloads
    floor = workloads.setup_per_op("numpy", n_ops=40)()
    ours = workloads.setup_per_op("minigrad", n_ops=40)()
    assert abs(ours.numpy() - floor).max() < 1e-12


def test_the_bare_engine_computes_what_minigrad_computes():
    """benchmarks/bare_engine.py times the leanest Python engine on run.py's workloads:
    its gradients must be minigrad's (else it would time something else)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import workloads
    for setup, size in ((workloads.setup_per_op, 40), (workloads.setup_chain, 300)):
        bare, ours = setup("bare", size)(), setup("minigrad", size)()
        assert bare.dtype == ours.numpy().dtype
        np.testing.assert_allclose(bare, ours.numpy(), rtol=1e-6)
