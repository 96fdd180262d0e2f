"""Expressions whose dtypes must not depend on the machine: integer results, indices, and the
ops that take indices, forward and backward.

numpy's own integer (`np.intp`: what argmax, argsort, arange and np.array([1, 2]) give, and
what np.take and np.bincount want) is int64 on a 64-bit machine but int32 on a 32-bit one,
such as the WebAssembly of Pyodide, the Python of JupyterLite.  PyTorch's indices and
integer results are int64 everywhere, and so must minigrad's be.

`describe_all(torch)` runs every expression with `torch` (minigrad, or PyTorch itself) and
says what each gave without its numbers: dtypes and shapes, Python types, or the error's
type.  tests/test_integer_dtypes.py compares minigrad's answers with PyTorch's here;
tests/browser/test_lite.py runs this file in the browser's Pyodide and compares its answers
with PyTorch's again.  The file needs nothing but numpy and the module it is given.
"""
import numpy as np

SETUP = """
x = torch.tensor([[0.5, -1.0, 2.0], [3.0, 2.0, -4.0]])
a = torch.tensor([[1, -2, 3], [4, 0, -6]])
i32 = a.int()
i8 = a.to(torch.int8)
u8 = a.abs().to(torch.uint8)
b = a > 0
idx = torch.tensor([1, 0])
labels = torch.tensor([2, 0])


def grad(f, base=x):
    t = base.detach().clone().requires_grad_()
    f(t).sum().backward()
    return t.grad


def setitem(key, value, base=x):
    y = base.clone()
    y[key] = value
    return y


def through_view(change):
    t = x.detach().clone().requires_grad_()
    u = t * 1
    change(u)
    u.sum().backward()
    return t.grad
"""

ON_INTEGERS = (
    "sum()", "sum(0)", "sum(1, keepdim=True)", "prod()", "prod(1)", "cumsum(0)", "cumsum(1)",
    "amax()", "amin(0)", "max()", "min()", "max(0)", "min(1)",
    "argsort(1)", "sort(1)", "topk(2)", "count_nonzero()", "count_nonzero(0)",
    "abs()", "neg()", "sign()", "square()", "clamp(0, 1)", "flip(0)", "roll(1)", "tril()", "t()",
    "diag()", "float()", "long()", "int()", "numpy().dtype.name", "tolist()", "flatten()",
    "std()", "mean()", "__add__(a)", "__add__(i32)", "__add__(u8)", "__mul__(2.5)",
)
ON_NUMBERS = (                      # not on bools (PyTorch refuses them)
    "argmax()", "argmin()", "argmax(1)", "argmin(0)", "kthvalue(1)", "median()", "median(1)", "mode(1)", "trace()",
    "floor_divide(2)", "remainder(2)", "pow(2)", "__add__(1)", "__mul__(2)", "__truediv__(2)",
    "__floordiv__(2)", "__mod__(2)", "__eq__(1)",
)
EXPRESSIONS = [f"{t}.{method}" for t in ("a", "i32", "i8", "u8", "b") for method in ON_INTEGERS]
EXPRESSIONS += [f"{t}.{method}" for t in ("a", "i32", "i8") for method in ON_NUMBERS]
EXPRESSIONS += [f"x.{method}" for method in (
    "max(0)", "min(1)", "argmax()", "argmin()", "argmax(1)", "argmin(1, keepdim=True)",
    "argsort()", "sort(0)", "topk(2)", "kthvalue(2)", "median(1)", "mode(1)", "nanmedian(0)",
    "count_nonzero()", "isnan()", "ge(0)", "long()", "round()", "floor()")]
EXPRESSIONS += [
    # made from Python's and numpy's integers
    "torch.tensor([1, 2])", "torch.tensor(3)", "torch.tensor([True, 1])", "torch.arange(5)",
    "torch.arange(1, 7, 2)", "torch.arange(3.0)", "torch.full((2,), 7)", "torch.full_like(a, 3)",
    "torch.zeros_like(a)", "torch.ones_like(b)", "torch.randint(0, 5, (3,))",
    "torch.eye(3, dtype=torch.long)", "torch.tensor(np.array([1, 2], dtype=np.int64))",
    "torch.as_tensor([1, 2])", "torch.from_numpy(np.array([1, 2], dtype=np.int64))",
    "torch.zeros(2, dtype=torch.long)", "torch.tensor(a.numpy())", "torch.tensor(a.tolist())",
    "a.new_tensor([1, 2])", "x.new_tensor([1, 2])", "a.new_zeros(2)", "a.new_full((2,), 3)",
    "torch.tensor(5) * 2", "torch.tensor(5) // 2", "torch.tensor(2 ** 40)",
    "torch.tensor([2 ** 40]) * 2", "torch.arange(2 ** 33, 2 ** 33 + 2)",
    "torch.randint(0, 2 ** 40, (2,))", "torch.tensor([1, 2]).numpy().dtype.name",
    # functions
    "torch.sum(a)", "torch.cumsum(a, 0)", "torch.stack([a, a])", "torch.cat([a, a])",
    "torch.where(b, a, 0)", "torch.max(a, a)", "torch.maximum(a, i32)",
    "torch.masked_fill(a, b, 5)", "a.index_fill(1, idx, 9)", "torch.argmax(x)", "torch.argmin(a)",
    "torch.argsort(a, 1)", "torch.sort(a)", "torch.topk(x, 1, 1)", "torch.count_nonzero(a, 1)",
    "i32.sum(dtype=torch.int64)", "a.sum(dtype=torch.int32)", "a.diagonal()", "a.repeat(2, 1)",
    "a.expand(2, 2, 3)", "torch.split(a, 1)", "a.unbind()", "a.chunk(2)", "a.tensor_split(2)",
    "a.select(0, 1)", "a.narrow(1, 0, 2)", "a.to(torch.float64)", "a.to(dtype=torch.int16)",
    "a.type_as(x)", "x.type_as(a)", "a.element_size()", "a.nbytes", "a.stride()", "a.size()",
    "a.numel()", "repr(torch.arange(2000))[:10]",
    # ops that take indices
    "x.index_select(0, idx)", "x.index_select(1, idx)", "torch.index_select(x, 1, idx)",
    "a.index_select(0, idx)", "x.gather(1, idx[:, None])", "x.take_along_dim(idx[:, None], 1)",
    "x[idx]", "x[[0, 1]]", "x[b]", "a[b]", "x[:, idx]", "torch.nn.functional.one_hot(labels)",
    "torch.nn.functional.one_hot(labels, 4)", "torch.nn.functional.cross_entropy(x, labels)",
    "torch.nn.functional.nll_loss(x, labels)",
    # ...and their backward
    "grad(lambda t: t.index_select(0, idx))", "grad(lambda t: t.index_select(1, idx))",
    "grad(lambda t: t.gather(1, idx[:, None]))", "grad(lambda t: t[idx])",
    "grad(lambda t: t[:, idx])", "grad(lambda t: t[b])", "grad(lambda t: t[[0, 1], [2, 0]])",
    "grad(lambda t: t.max(1).values)", "grad(lambda t: t.sort(1).values)",
    "grad(lambda t: t.topk(2).values)", "grad(lambda t: t.kthvalue(2).values)",
    "grad(lambda t: t.median(1).values)", "grad(lambda t: t.mode(1).values)",
    "grad(lambda t: t.amax(1))", "grad(lambda t: t.max())",
    "grad(lambda t: t.take_along_dim(idx[:, None], 1))", "grad(lambda t: t.index_fill(1, idx, 0.0))",
    "grad(lambda t: t.masked_fill(b, 0.0))", "grad(lambda t: t.expand(2, 2, 3))",
    "grad(lambda t: t.diagonal())", "grad(lambda t: t.roll(1, 1))", "grad(lambda t: t.flip(0))",
    "grad(lambda t: t.repeat(2, 1))", "grad(lambda t: torch.nn.functional.cross_entropy(t, labels))",
    "grad(lambda t: torch.nn.functional.nll_loss(t, labels))", "grad(lambda t: t.cumsum(1))",
    "grad(lambda t: t.prod(1))", "grad(lambda t: t.median())",
    "grad(lambda t: t.nanmedian(0).values)", "grad(lambda t: t.unbind(1)[0])",
    "grad(lambda t: t.split(1, 1)[1])", "grad(lambda t: t.narrow(1, 1, 2))",
    # writing through indices and views
    "setitem(idx, 0.0)", "setitem((slice(None), idx), 0.0)", "setitem(b, 0.0)", "setitem(0, 1.0)",
    "setitem(idx, 5, a)", "setitem(([0, 1], [1, 2]), 7.0)",
    "through_view(lambda u: u[0].mul_(2))", "through_view(lambda u: u[:, 1].zero_())",
    "through_view(lambda u: u.diagonal().add_(1))", "through_view(lambda u: u.t()[0].fill_(3))",
    "through_view(lambda u: u.__setitem__(idx, 1.0))", "through_view(lambda u: u.view(3, 2)[1].mul_(3))",
    "through_view(lambda u: u[:, ::2].mul_(3))", "through_view(lambda u: u.__setitem__(b, 0.0))",
    "through_view(lambda u: u[1:].clamp_(0, 1))",
    "torch.autograd.gradcheck(lambda t: t.index_select(0, idx), (x.double().requires_grad_(),))",
    "torch.autograd.gradcheck(lambda t: t.gather(1, idx[:, None]), (x.double().requires_grad_(),))",
]


def describe(value):
    """What a value is, without its numbers: a tensor's dtype and shape, a Python type."""
    kind = type(value).__name__
    if kind == "Tensor":
        return f"{str(value.dtype).split('.')[-1]}{list(value.shape)}"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(describe(item) for item in value) + ")"
    if isinstance(value, str):
        return repr(value)
    return kind


def describe_all(torch):
    """{expression: what it gave} with `torch` as the module named torch."""
    scope = {"torch": torch, "np": np}
    exec(SETUP, scope)
    found = {}
    for expression in EXPRESSIONS:
        try:
            found[expression] = describe(eval(expression, scope))
        except Exception as error:          # noqa: BLE001 — an error is an answer too
            found[expression] = f"{type(error).__name__}"
    return found
