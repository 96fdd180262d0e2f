"""What the lessons state about PyTorch, held against minigrad (and PyTorch where it is
installed): hook arguments, files left by saved-tensor hooks, the nodes a double backward
records, what once_differentiable raises, why a GPU's first call is slow."""
import ast
import gc
import os
import pathlib
import re

import nbformat
import pytest

import minigrad
from minigrad.lessons import lesson_path

SOURCES = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "sources"


def code_cells(lesson):
    notebook = nbformat.read(lesson_path(lesson, "en", solutions=True), as_version=4)
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


def prose(lesson, lang="en"):
    """The lesson's text, its paragraphs apart, each on one line (as Markdown shows it)."""
    notebook = nbformat.read(lesson_path(lesson, lang, solutions=True), as_version=4)
    text = "\n\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    return "\n\n".join(" ".join(p.split()) for p in text.split("\n\n"))


def cell_defining(lesson, name):
    return next(source for source in code_cells(lesson) if f"def {name}(" in source)


def engines():
    yield minigrad
    try:
        import torch
    except ImportError:
        return
    yield torch


# --- lesson 07: node hooks are called as PyTorch names their arguments ------------------

def lambdas_registered_by(source, method):
    """The parameter names of each lambda passed to `<tensor>.grad_fn.<method>(...)`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == method and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "grad_fn" and node.args
                and isinstance(node.args[0], ast.Lambda)):
            found.append(tuple(arg.arg for arg in node.args[0].args.args))
    return found


def test_lesson_07_names_node_hook_arguments_as_pytorch_does():
    source = (SOURCES / "07-hooks.py").read_text(encoding="utf-8")
    prehooks = lambdas_registered_by(source, "register_prehook")
    hooks = lambdas_registered_by(source, "register_hook")
    assert prehooks and set(prehooks) == {("grad_outputs",)}
    assert hooks and set(hooks) == {("grad_inputs", "grad_outputs")}
    assert "grads_in" not in source and "grads_out" not in source
    for text in (prose(7), prose(7, "zh")):
        assert "`fn(grad_inputs, grad_outputs)`" in text and "`fn(grad_outputs)`" in text


@pytest.mark.parametrize("torch", list(engines()), ids=lambda module: module.__name__)
def test_a_node_hook_gets_the_gradients_of_the_ops_inputs_first(torch):
    """The mapping lesson 07 states: grad_inputs (first) are shaped like the op's inputs,
    grad_outputs like its output, and the pre-hook sees grad_outputs."""
    seen = {}
    a = torch.ones(2, 3, requires_grad=True)
    b = torch.ones(3, requires_grad=True)
    y = a * b
    y.grad_fn.register_prehook(lambda grad_outputs: seen.update(pre=grad_outputs))
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.update(
        inputs=grad_inputs, outputs=grad_outputs))
    y.sum().backward()
    assert [tuple(g.shape) for g in seen["inputs"]] == [(2, 3), (3,)]
    assert [tuple(g.shape) for g in seen["outputs"]] == [(2, 3)]
    assert [tuple(g.shape) for g in seen["pre"]] == [(2, 3)]


# --- lesson 07: the disk hooks delete their files --------------------------------------

def test_lesson_07_disk_hooks_leave_no_file_behind():
    scope = {"torch": minigrad}
    exec(cell_defining(7, "pack_to_disk"), scope)         # also runs its measurements
    folder, forward = scope["folder"], scope["forward"]
    hooks = minigrad.autograd.graph.saved_tensors_hooks
    assert os.listdir(folder) == []
    x = minigrad.randn(64, 32, requires_grad=True)
    with hooks(scope["pack_to_disk"], scope["unpack_from_disk"]):
        y = forward(x)
    assert len(os.listdir(folder)) == 4               # four tanh, one saved output each
    y.sum().backward()
    assert os.listdir(folder) == []
    gc.disable()                  # a graph deleted without backward takes its files with it
    try:
        with hooks(scope["pack_to_disk"], scope["unpack_from_disk"]):
            y = forward(x)
        del y
        assert os.listdir(folder) == []
    finally:
        gc.enable()


# --- lesson 09: the nodes of a double backward -------------------------------------------

def test_lesson_09_names_the_nodes_that_the_gradient_of_a_power_records():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (g,) = minigrad.autograd.grad((x ** 3).sum(), x, create_graph=True)
    recorded, node = [], g.grad_fn
    while node is not None and node.name().endswith(tuple("0123456789")):
        recorded.append(node.name())
        node = next((n for n, _ in node.next_functions if n is not None), None)
    assert recorded == ["MulBackward0", "MulBackward1", "PowBackward0"]
    for lang in ("en", "zh"):
        paragraph = next(p for p in prose(9, lang).split("\n\n") if "MulBackward1" in p)
        named = set(re.findall(r"`(\w+Backward\d)`", paragraph))
        assert named == set(recorded), (lang, named)


# --- lesson 09: what once_differentiable raises --------------------------------------

def test_lesson_09_once_differentiable_raises_what_the_lesson_says():
    scope = {"torch": minigrad}
    for name in ("PartlyNumpyCube", "OnceCube"):
        source = next(s for s in code_cells(9) if f"class {name}(" in s)
        exec(source, scope)
    text = prose(9)
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    (first,) = minigrad.autograd.grad(scope["PartlyNumpyCube"].apply(x).sum(), x,
                                      create_graph=True)
    (second,) = minigrad.autograd.grad(first.sum(), x)
    assert second.tolist() == [3.0, 6.0]                    # 3x, not 6x: silently wrong
    assert "`3x` instead of `6x`" in text
    (first,) = minigrad.autograd.grad(scope["OnceCube"].apply(x).sum(), x, create_graph=True)
    assert not first.requires_grad
    with pytest.raises(RuntimeError, match="does not require grad and does not have a grad_fn"):
        minigrad.autograd.grad(first.sum(), x)
    y = scope["OnceCube"].apply(x)
    (first,) = minigrad.autograd.grad((y * y).sum(), x, create_graph=True)
    assert first.grad_fn.name() == "torch::autograd::Error"
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        minigrad.autograd.grad(first.sum(), x)
    with pytest.raises(RuntimeError, match="trying to differentiate twice"):
        first.sum().backward()
    assert "appears to not have been used in the graph" in text and "`Error` node" in text


# --- lesson 10: the first call on a GPU ---------------------------------------------------

def test_lesson_10_says_who_compiles_kernels():
    source = cell_defining(10, "time_matmul")
    warm_up = next(line for line in source.splitlines() if "warm-up" in line)
    assert "CuPy" in warm_up
    for lang in ("en", "zh"):
        text = prose(10, lang)
        assert "CuPy" in text and "cuBLAS" in text
