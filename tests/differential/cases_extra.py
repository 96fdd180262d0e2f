"""More differential cases, in the style of cases_public.py, over the whole
surface that shared/DESIGN.md ("The promise") says minigrad copies.

Each ``case_xxx(T, rec)`` runs under ``T = torch`` and ``T = minigrad``;
harness.compare checks that both record the same things.  Rules:

- fixed data only (the two random number generators differ);
- printed names differ on purpose (``torch.float32`` / ``minigrad.float32``,
  ``torch.Size`` / ``minigrad.Size``): strings are passed through ``_n``,
  which rewrites ``torch.`` as ``minigrad.``; everything else is exact;
- errors are checked with ``rec.raises(type phrases...)``: the builtin
  exception type is compared, and each phrase must occur in the message.
"""


def _n(value):
    """A printed value with PyTorch's module prefix replaced by minigrad's."""
    return str(value).replace("torch.", "minigrad.")


def _edges(node):
    """next_functions as (node name or None, input number) pairs."""
    return [(None if n is None else n.name(), nr) for n, nr in node.next_functions]


def _one_fn(T, name, body):
    """A custom Function whose forward is ``body(x)`` and backward passes g through."""
    class Passing(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return body(x)

        @staticmethod
        def backward(ctx, g):
            return g
    Passing.__name__ = name
    return Passing


# --- constructors and dtypes ---------------------------------------------------

def case_constructor_dtype_inference(T, rec):
    made = {
        "float scalar": T.tensor(1.5),
        "int scalar": T.tensor(3),
        "bool scalar": T.tensor(True),
        "mixed list": T.tensor([1, 2.5]),
        "int matrix": T.tensor([[1, 2], [3, 4]]),
        "bool list": T.tensor([True, False]),
        "explicit float64": T.tensor([1, 2], dtype=T.float64),
        "explicit double": T.tensor(1.0, dtype=T.double),
        "explicit int64 from floats": T.tensor([1.7, -2.7], dtype=T.int64),
        "explicit bool": T.tensor([0.0, 2.0], dtype=T.bool),
        "from tensor": T.tensor(T.tensor([1.0, 2.0])),
    }
    for name, t in made.items():
        rec(name, t)
        rec(name + " dtype", _n(t.dtype))
        rec(name + " shape", tuple(t.shape))
        rec(name + " ndim", t.ndim)
    empty = T.tensor([])
    rec("empty dtype", _n(empty.dtype))
    rec("empty shape", tuple(empty.shape))
    rec("empty numel", empty.numel())


def case_factory_functions(T, rec):
    rec("ones(2, 3)", T.ones(2, 3))
    rec("ones((2, 3))", T.ones((2, 3)))
    rec("zeros(4)", T.zeros(4))
    rec("zeros int", T.zeros(2, dtype=T.int64))
    rec("zeros int dtype", _n(T.zeros(2, dtype=T.int64).dtype))
    rec("ones bool", T.ones(2, dtype=T.bool))
    base = T.tensor([[1, 2, 3]])
    rec("ones_like int", T.ones_like(base))
    rec("zeros_like int dtype", _n(T.zeros_like(base).dtype))
    rec("zeros_like float64", T.zeros_like(base, dtype=T.float64))
    rec("full float", T.full((2, 2), 3.5))
    rec("full int dtype", _n(T.full((2,), 7).dtype))
    rec("full bool dtype", _n(T.full((2,), True).dtype))
    rec("full explicit", T.full((3,), 2, dtype=T.float32))
    rec("arange(5)", T.arange(5))
    rec("arange(5) dtype", _n(T.arange(5).dtype))
    rec("arange float step", T.arange(0, 1, 0.25))
    rec("arange float step dtype", _n(T.arange(0, 1, 0.25).dtype))
    rec("arange(1.0, 4.0)", T.arange(1.0, 4.0))
    rec("arange(2, 9, 3)", T.arange(2, 9, 3))
    rec("arange dtype arg", T.arange(3, dtype=T.float64))
    w = T.ones(3, requires_grad=True)
    rec("ones requires_grad", w.requires_grad)
    rec("ones requires_grad is_leaf", w.is_leaf)
    rec("full_like", T.full_like(T.tensor([1.0, 2.0]), 9.0))
    rec("ones_like requires_grad", T.ones_like(w).requires_grad)


def case_random_shapes_and_seed(T, rec):
    T.manual_seed(0)
    a = T.randn(2, 3)
    b = T.rand(4)
    rec("randn shape", tuple(a.shape))
    rec("randn dtype", _n(a.dtype))
    rec("rand shape", tuple(b.shape))
    rec("rand in [0, 1)", bool(((b >= 0) & (b < 1)).all()))
    T.manual_seed(7)
    first = T.randn(5)
    T.manual_seed(7)
    second = T.randn(5)
    rec("same seed, same numbers", bool((first == second).all()))
    c = T.randn(3, dtype=T.float64, requires_grad=True)
    rec("randn float64 requires_grad", (_n(c.dtype), c.requires_grad, c.is_leaf))


def case_dtype_promotion(T, rec):
    f32 = T.tensor([1.0, 2.0])
    f64 = T.tensor([1.0, 2.0], dtype=T.float64)
    i64 = T.tensor([1, 2])
    i32 = T.tensor([1, 2], dtype=T.int32)
    b = T.tensor([True, False])
    f64_0d = T.tensor(2.0, dtype=T.float64)
    i64_0d = T.tensor(3)
    f32_0d = T.tensor(2.0)
    pairs = {
        "int tensor + float number": lambda: i64 + 1.5,
        "int tensor + int number": lambda: i64 + 2,
        "int tensor * bool number": lambda: i64 * True,
        "float32 tensor + float64 0-dim": lambda: f32 + f64_0d,
        "int64 tensor + float64 0-dim": lambda: i64 + f64_0d,
        "float32 tensor + float64 tensor": lambda: f32 + f64,
        "0-dim float64 + 0-dim float32": lambda: f64_0d + f32_0d,
        "int32 tensor + int64 0-dim": lambda: i32 + i64_0d,
        "int32 tensor + int64 tensor": lambda: i32 + i64,
        "bool + bool": lambda: b + b,
        "bool + int number": lambda: b + 1,
        "bool * float number": lambda: b * 1.5,
        "bool tensor + int tensor": lambda: b + i64,
        "float number - int tensor": lambda: 0.5 - i64,
        "int 0-dim * float32 tensor": lambda: i64_0d * f32,
        "float32 0-dim * int tensor": lambda: f32_0d * i64,
    }
    for name, make in pairs.items():
        result = make()
        rec(name, result)
        rec(name + " dtype", _n(result.dtype))


def case_int_division_and_power(T, rec):
    a = T.tensor([5, 3, -7])
    b = T.tensor([2, 2, 2])
    results = {
        "int / int number": a / 2,
        "int / int tensor": a / b,
        "number / int tensor": 7 / b,
        "int ** 2": a ** 2,
        "int ** 0.5": b ** 0.5,
        "2 ** int tensor": 2 ** b,
        "2.0 ** int tensor": 2.0 ** b,
        "int tensor ** int tensor": a ** b,
        "float64 / int": T.tensor([1.0], dtype=T.float64) / 4,
        "int sum": a.sum(),
        "bool sum": T.tensor([True, True, False]).sum(),
        "neg int": -a,
    }
    for name, result in results.items():
        rec(name, result)
        rec(name + " dtype", _n(result.dtype))


# --- printing -------------------------------------------------------------------

def case_repr_values(T, rec):
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    shown = {
        "float whole": T.tensor([1.0, 2.0]),
        "float fractional": T.tensor([1.5, -2.25, 3.0]),
        "float 0-dim": T.tensor(3.5),
        "float 0-dim whole": T.tensor(2.0),
        "int": T.tensor([1, -20, 300]),
        "int 0-dim": T.tensor(7),
        "bool": T.tensor([True, False]),
        "float64": T.tensor([1.5, 2.0], dtype=T.float64),
        "int32": T.tensor([1, 2], dtype=T.int32),
        "matrix": T.tensor([[1.0, -2.5], [10.0, 4.0]]),
        "int matrix": T.tensor([[1, 22], [333, 4]]),
        "3-d": T.tensor([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]),
        "requires grad": x,
        "grad_fn": x * 2,
        "sum grad_fn": (x * 2).sum(),
        "large values": T.tensor([1e10, 1.0]),
        "small values": T.tensor([1e-5, 1.0]),
        "wide range": T.tensor([0.001, 1000.0, 5.5]),
        "nan and inf": T.tensor([float("nan"), float("inf"), -float("inf"), 1.0]),
        "empty": T.tensor([]),
        "empty 2-d": T.zeros(0, 3),
        "negative zero and ones": T.tensor([-1.0, 0.0, 1.0]),
        "zeros only": T.tensor([0.0, 0.0]),
        "wraps at 80 columns": T.arange(20.0) / 3,
        "int row wraps": T.arange(30),
        "rows wrap inside a matrix": T.arange(40.0).view(2, 20) / 7,
        "suffix on its own line": T.tensor([1.5] * 9, dtype=T.float64, requires_grad=True) * 2,
        "long requires_grad": T.tensor([1.5] * 12, requires_grad=True),
        "wide scientific row": T.tensor([1e-5, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]),
        "bool row wraps": T.tensor([True, False] * 10),
    }
    for name, t in shown.items():
        rec(name, _n(repr(t)))


def case_repr_names(T, rec):
    x = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    rec("shape repr", _n(repr(x.shape)))
    rec("size() repr", _n(repr(x.size())))
    rec("size(1)", x.size(1))
    rec("shape == tuple", x.shape == (2, 3))
    rec("dtype repr", _n(repr(x.dtype)))
    rec("float64 repr", _n(repr(T.float64)))
    rec("double is float64", T.double == T.float64)
    rec("int64 repr", _n(repr(T.int64)))
    rec("bool repr", _n(repr(T.bool)))
    rec("device", str(x.device))
    rec("device repr", repr(x.device))
    rec("dtype is_floating_point", (T.float32.is_floating_point, T.int64.is_floating_point))
    rec("numel dim ndim len", (x.numel(), x.dim(), x.ndim, len(x)))


def case_repr_summarized(T, rec):
    rec("long vector", _n(repr(T.arange(2000.0))))
    rec("long int vector", _n(repr(T.arange(1500))))
    rec("big matrix", _n(repr(T.arange(40 * 30).view(40, 30) / 7)))


# --- arithmetic --------------------------------------------------------------

def case_reflected_operands(T, rec):
    x = T.tensor([1.0, 2.0, 4.0], requires_grad=True)
    results = {
        "2 + x": 2 + x,
        "2 - x": 2 - x,
        "x - 2": x - 2,
        "2 * x": 2 * x,
        "2 / x": 2 / x,
        "x / 2": x / 2,
        "2 ** x": 2 ** x,
        "x ** 2": x ** 2,
        "-x": -x,
        "+x": +x,
        "x ** -1": x ** -1,
        "x ** 0": x ** 0,
        "x ** 0.5": x ** 0.5,
    }
    for name, y in results.items():
        rec(name, y)
        rec(name + " node", y.grad_fn.name() if y.grad_fn is not None else None)
        (g,) = T.autograd.grad(y.sum(), x)
        rec(name + " grad", g)
    rec("+x is x", (+x) is x)


def case_broadcast_arithmetic(T, rec):
    a = T.tensor([[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]], requires_grad=True)   # (2, 1, 3)
    b = T.tensor([[1.0], [2.0], [3.0], [4.0]], requires_grad=True)              # (4, 1)
    c = T.tensor([0.5, 1.5, 2.5], requires_grad=True)                            # (3,)
    y = a * b - c / (b + 1) + a ** 2
    rec("shape", tuple(y.shape))
    rec("y", y)
    (y * T.arange(24.0).view(2, 4, 3)).sum().backward()
    rec("a.grad", a.grad)
    rec("b.grad", b.grad)
    rec("c.grad", c.grad)


def case_broadcast_errors(T, rec):
    with rec.raises("must match the size of tensor b (4)", "non-singleton dimension 0",
                    name="(3,) + (4,)"):
        T.ones(3) + T.ones(4)
    with rec.raises("must match", "non-singleton dimension 1", name="(2, 3) * (2, 2)"):
        T.ones(2, 3) * T.ones(2, 2)
    with rec.raises("must match", name="requires_grad operands"):
        T.ones(2, requires_grad=True) - T.ones(5)
    with rec.raises("mat1 and mat2 shapes cannot be multiplied", "2x3 and 2x3", name="mm"):
        T.ones(2, 3).mm(T.ones(2, 3))
    with rec.raises("shapes cannot be multiplied", name="matmul 2-d"):
        T.ones(2, 3) @ T.ones(4, 2)
    with rec.raises("inconsistent tensor size", name="matmul 1-d"):
        T.ones(3) @ T.ones(4)
    with rec.raises("invalid for input of size 6", name="bad view"):
        T.ones(2, 3).view(4, 2)
    with rec.raises("only one dimension can be inferred", name="two -1"):
        T.ones(2, 3).view(-1, -1)


def case_matmul_family(T, rec):
    A = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    B = T.tensor([[1.0, 0.5], [-1.0, 2.0], [0.0, 1.0]], requires_grad=True)
    v = T.tensor([1.0, -1.0, 2.0], requires_grad=True)
    w = T.tensor([0.5, 2.0], requires_grad=True)
    results = {
        "mm": A.mm(B),
        "A @ B": A @ B,
        "T.mm": T.mm(A, B),
        "T.matmul": T.matmul(A, B),
        "mv": A @ v,
        "vm": w @ A,
        "dot": v @ v,
    }
    for name, y in results.items():
        rec(name, y)
        rec(name + " node", y.grad_fn.name())
        grads = T.autograd.grad(y.sum(), [A, B, v, w], allow_unused=True)
        rec(name + " grads", grads)
    names = {
        "3-d @ 2-d": T.ones(2, 2, 3, requires_grad=True) @ B,
        "3-d @ 3-d": T.ones(2, 2, 3, requires_grad=True) @ T.ones(2, 3, 2),
        "1-d @ 3-d": v @ T.ones(2, 3, 2),
        "3-d @ 1-d": T.ones(2, 2, 3) @ v,
    }
    for name, y in names.items():
        rec(name + " shape", tuple(y.shape))
        rec(name + " node", y.grad_fn.name())
    vm = w @ A
    vm.add_(1)
    rec("1-d @ 2-d result is not a view", (vm.grad_fn.name(), _edges(vm.grad_fn)))
    bm = T.ones(2, 2, 3, requires_grad=True) @ B
    bm.mul_(2)
    rec("batched result is not a view", (bm.grad_fn.name(), _edges(bm.grad_fn)))
    batch = T.arange(12.0).view(2, 2, 3).requires_grad_()
    y = batch @ B
    rec("batched", y)
    y.sum().backward()
    rec("batched grad", batch.grad)
    rec("B.grad from batched", B.grad)


# --- elementwise functions ---------------------------------------------------

def case_unary_values_and_grads(T, rec):
    data = [0.25, 0.5, 1.0, 2.0]
    mixed = [-2.0, -0.5, 0.5, 3.0]
    ops = {
        "exp": (data, lambda x: x.exp()),
        "log": (data, lambda x: x.log()),
        "sin": (mixed, lambda x: x.sin()),
        "cos": (mixed, lambda x: x.cos()),
        "tanh": (mixed, lambda x: x.tanh()),
        "sigmoid": (mixed, lambda x: x.sigmoid()),
        "relu": (mixed, lambda x: x.relu()),
        "sqrt": (data, lambda x: x.sqrt()),
        "abs": (mixed, lambda x: x.abs()),
        "neg": (mixed, lambda x: x.neg()),
        "pow 3": (mixed, lambda x: x.pow(3)),
        "clamp both": (mixed, lambda x: x.clamp(-1.0, 1.0)),
        "clamp min": (mixed, lambda x: x.clamp(min=0.0)),
        "clamp max": (mixed, lambda x: x.clamp(max=0.0)),
    }
    for name, (values, op) in ops.items():
        x = T.tensor(values, requires_grad=True)
        y = op(x)
        rec(name, y)
        rec(name + " dtype", _n(y.dtype))
        rec(name + " node", y.grad_fn.name())
        (y * T.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
        rec(name + " grad", x.grad)


def case_unary_function_forms(T, rec):
    x = T.tensor([-1.0, 0.5, 2.0], requires_grad=True)
    fns = {
        "T.exp": T.exp, "T.sin": T.sin, "T.cos": T.cos, "T.tanh": T.tanh,
        "T.sigmoid": T.sigmoid, "T.relu": T.relu, "T.abs": T.abs,
        "T.sum": T.sum, "T.mean": T.mean,
    }
    for name, fn in fns.items():
        y = fn(x)
        rec(name, y)
        rec(name + " node", y.grad_fn.name())
    rec("T.log of abs", T.log(x.abs()))
    rec("T.sqrt of abs", T.sqrt(x.abs()))
    rec("T.clamp", T.clamp(x, min=0.0, max=1.0))
    rec("T.max", T.max(x))
    rec("T.min", T.min(x))
    rec("T.allclose", T.allclose(x.detach(), T.tensor([-1.0, 0.5, 2.0000001])))
    rec("T.allclose false", T.allclose(x.detach(), T.tensor([-1.0, 0.5, 2.1])))
    ints = T.tensor([0, 1, 2])
    for name, y in {"exp int": ints.exp(), "sqrt int": ints.sqrt(),
                    "sigmoid int": ints.sigmoid(), "abs int": T.tensor([-3, 2]).abs(),
                    "relu int": T.tensor([-3, 2]).relu(),
                    "clamp int": T.tensor([-3, 2, 9]).clamp(0, 5)}.items():
        rec(name, y)
        rec(name + " dtype", _n(y.dtype))


def case_kinks_at_zero(T, rec):
    x = T.tensor([0.0, 0.0, 0.0, 1.0], requires_grad=True)
    parts = [x.abs(), x.relu(), x.clamp(min=0.0), x.clamp(max=0.0)]
    for i, part in enumerate(parts):
        x.grad = None
        part.sum().backward()
        rec(f"grad {i}", x.grad)
    y = T.tensor([0.0, 4.0], requires_grad=True)
    y.sqrt().sum().backward()
    rec("sqrt grad at 0 is inf", y.grad)
    z = T.tensor([0.0, 2.0], requires_grad=True)
    (z ** 2).sum().backward()
    rec("pow grad at 0", z.grad)
    u = T.tensor([0.0, 2.0], requires_grad=True)
    (u ** 0.5).sum().backward()
    rec("pow 0.5 grad at 0", u.grad)
    m = T.tensor([1.0, 3.0, 3.0, 2.0], requires_grad=True)
    m.max().backward()
    rec("max() ties share the gradient", m.grad)


def case_pow_tensor_exponent(T, rec):
    a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = T.tensor([2.0, 0.5, -1.0], requires_grad=True)
    y = a ** b
    rec("a ** b", y)
    rec("node", y.grad_fn.name())
    y.sum().backward()
    rec("a.grad", a.grad)
    rec("b.grad", b.grad)
    c = T.tensor([0.0, 1.0], requires_grad=True)
    e = T.tensor([2.0, 2.0], requires_grad=True)
    (c ** e).sum().backward()
    rec("0 ** 2 grad wrt exponent", e.grad)
    rec("0 ** 2 grad wrt base", c.grad)


# --- reductions -------------------------------------------------------------------

def case_sum_mean_dims(T, rec):
    x = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    variants = {
        "sum()": lambda: x.sum(),
        "sum(0)": lambda: x.sum(0),
        "sum(dim=1)": lambda: x.sum(dim=1),
        "sum(-1, keepdim)": lambda: x.sum(-1, keepdim=True),
        "sum((0, 1))": lambda: x.sum((0, 1)),
        "sum(dim=(0,), keepdim)": lambda: x.sum(dim=(0,), keepdim=True),
        "mean()": lambda: x.mean(),
        "mean(0)": lambda: x.mean(0),
        "mean(1, keepdim)": lambda: x.mean(1, keepdim=True),
        "mean((-2, -1))": lambda: x.mean((-2, -1)),
        "T.sum dim": lambda: T.sum(x, 1),
        "T.mean dim keepdim": lambda: T.mean(x, 0, True),
    }
    for name, make in variants.items():
        y = make()
        rec(name, y)
        rec(name + " node", y.grad_fn.name())
        x.grad = None
        (y * 2).sum().backward()
        rec(name + " grad", x.grad)
    with rec.raises("Dimension out of range", name="bad dim"):
        x.sum(2)
    with rec.raises("mean(): could not infer output dtype", name="int mean"):
        T.tensor([1, 2]).mean()


def case_max_min_with_dim(T, rec):
    x = T.tensor([[1.0, 5.0, 3.0], [7.0, 2.0, 4.0]], requires_grad=True)
    values, indices = x.max(dim=1)
    rec("max values", values)
    rec("max indices", indices)
    rec("indices dtype", _n(indices.dtype))
    rec("indices requires_grad", indices.requires_grad)
    rec("values node", values.grad_fn.name())
    result = x.min(0, keepdim=True)
    rec("min .values", result.values)
    rec("min .indices", result.indices)
    rec("min [0] is values", result[0] is result.values)
    rec("namedtuple length", len(result))
    (values.sum() + result.values.sum() * 10).backward()
    rec("x.grad", x.grad)
    rec("T.max(x, 0)", tuple(T.max(x, 0)))
    rec("T.min(x, dim=1)", tuple(T.min(x, dim=1)))
    rec("max() all", x.max())
    rec("max() node", x.max().grad_fn.name())
    rec("min() all", x.min())
    rec("argmax", x.argmax())
    rec("argmax dim", x.argmax(dim=0))
    rec("argmin dim keepdim", x.argmin(dim=1, keepdim=True))
    rec("max of ints", T.tensor([[3, 9], [4, 1]]).max(1))


# --- shapes and views ----------------------------------------------------------------

def case_view_reshape(T, rec):
    x = T.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], requires_grad=True)
    v = x.view(2, 3)
    r = x.reshape(3, -1)
    f = v.view(-1)
    rec("view", v)
    rec("view node", v.grad_fn.name())
    rec("reshape", r)
    rec("reshape node", r.grad_fn.name())
    rec("view tuple arg", x.view((3, 2)).shape == (3, 2))
    t = v.t()
    rec("t is contiguous", t.is_contiguous())
    with rec.raises("view size is not compatible", name="view of transposed"):
        t.view(6)
    c = t.reshape(6)
    rec("reshape of transposed", c)
    rec("reshape of transposed node", c.grad_fn.name())
    cc = t.contiguous()
    rec("contiguous node", cc.grad_fn.name())
    rec("contiguous view", cc.view(6))
    fl = v.flatten()
    rec("flatten", fl)
    (f * 1 + c * 10 + fl * 100).sum().backward()
    rec("x.grad", x.grad)


def case_transpose_permute(T, rec):
    x = T.arange(24.0).view(2, 3, 4).requires_grad_()
    parts = {
        "transpose(0, 2)": x.transpose(0, 2),
        "transpose(-1, -2)": x.transpose(-1, -2),
        "permute(2, 0, 1)": x.permute(2, 0, 1),
        "permute list": x.permute([1, 2, 0]),
        ".T of 2-d": x[0].T,
        ".t()": x[1].t(),
        ".mT": x.mT,
    }
    weights = 1.0
    total = 0
    for name, y in parts.items():
        rec(name + " shape", tuple(y.shape))
        rec(name, y)
        rec(name + " node", y.grad_fn.name())
        rec(name + " contiguous", y.is_contiguous())
        total = total + (y * weights).sum()
        weights += 1.0
    total.backward()
    rec("x.grad", x.grad)
    with rec.raises("t() expects a tensor with <= 2 dimensions", name="t of 3-d"):
        x.t()


def case_squeeze_unsqueeze_expand(T, rec):
    x = T.tensor([[[1.0], [2.0], [3.0]]], requires_grad=True)      # (1, 3, 1)
    parts = {
        "squeeze()": x.squeeze(),
        "squeeze(0)": x.squeeze(0),
        "squeeze(1) (not size 1)": x.squeeze(1),
        "squeeze(-1)": x.squeeze(-1),
        "unsqueeze(0)": x.unsqueeze(0),
        "unsqueeze(-1)": x.unsqueeze(-1),
        "expand(2, 3, 4)": x.expand(2, 3, 4),
        "expand(-1, -1, 2)": x.expand(-1, -1, 2),
        "expand to more dims": x.expand(2, 1, 3, 5),
        "expand_as": x.expand_as(T.ones(1, 3, 2)),
    }
    total = 0
    for i, (name, y) in enumerate(parts.items()):
        rec(name + " shape", tuple(y.shape))
        rec(name + " node", y.grad_fn.name())
        total = total + y.sum() * (i + 1)
    total.backward()
    rec("x.grad", x.grad)
    with rec.raises("must match the existing size", name="bad expand"):
        x.expand(2, 2, 1)
    e = T.tensor([1.0, 2.0]).expand(3, 2)
    rec("expanded values", e)


def case_views_share_storage(T, rec):
    base = T.arange(6.0).view(2, 3)
    row = base[0]
    col = base[:, 1]
    tr = base.t()
    rec("fresh versions", (base._version, row._version, col._version, tr._version))
    with T.no_grad():
        row.mul_(10)
    rec("base after row.mul_", base)
    rec("versions after one write", (base._version, row._version, col._version, tr._version))
    col[0] = -1.0
    tr[2, 1] = 99.0
    rec("base after two setitems", base)
    rec("row sees them", row)
    rec("versions after three writes", (base._version, row._version, tr._version))
    flat = base.view(-1)
    flat.zero_()
    rec("all zero through flat view", base)
    rec("versions via flat", (base._version, flat._version))
    d = base.detach()
    d.fill_(2.0)
    rec("detach writes through", base)
    rec("detach shares the counter", (base._version, d._version))
    e = base.expand(2, 2, 3)
    rec("expand is a view", e._version == base._version)
    arr_copy = base[[0, 1]]
    arr_copy.fill_(5.0)
    rec("integer indexing copies", base)


def case_basic_slicing(T, rec):
    x = T.arange(24.0).view(2, 3, 4).requires_grad_()
    keys = {
        "x[1]": lambda: x[1],
        "x[-1]": lambda: x[-1],
        "x[0, 2]": lambda: x[0, 2],
        "x[0, 2, 3]": lambda: x[0, 2, 3],
        "x[:, 1]": lambda: x[:, 1],
        "x[..., 0]": lambda: x[..., 0],
        "x[1:]": lambda: x[1:],
        "x[:, ::2]": lambda: x[:, ::2],
        "x[:, 1:3, -2:]": lambda: x[:, 1:3, -2:],
        "x[None]": lambda: x[None],
        "x[:, None, 0]": lambda: x[:, None, 0],
        "x[...]": lambda: x[...],
        "x[:]": lambda: x[:],
        "x[0][1][2]": lambda: x[0][1][2],
    }
    for i, (name, make) in enumerate(keys.items()):
        y = make()
        rec(name + " shape", tuple(y.shape))
        rec(name, y)
        rec(name + " node", y.grad_fn.name())
        x.grad = None
        (y * (i + 1)).sum().backward()
        rec(name + " grad", x.grad)
    with rec.raises("out of bounds", name="index 3 of size 2"):
        x[2]
    with rec.raises("too many indices", name="four indices"):
        x[0, 0, 0, 0]


def case_integer_array_indexing(T, rec):
    x = T.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
    y = x[[0, 0, 2, 0]]
    rec("repeated", y)
    rec("node", y.grad_fn.name())
    y.sum().backward()
    rec("repeated indices accumulate", x.grad)
    x.grad = None
    idx = T.tensor([3, 1, 3])
    z = x[idx]
    (z * T.tensor([1.0, 2.0, 3.0])).sum().backward()
    rec("tensor index", z)
    rec("tensor index grad", x.grad)
    m = T.arange(12.0).view(3, 4).requires_grad_()
    p = m[[0, 2, 2], [1, 3, 3]]
    rec("pairs", p)
    q = m[[1, 1]]
    rec("rows", q)
    r = m[:, [0, 0, 3]]
    rec("columns", r)
    s = m[T.tensor([[0, 1], [2, 2]])]
    rec("2-d index shape", tuple(s.shape))
    (p.sum() + q.sum() * 10 + r.sum() * 100 + s.sum() * 1000).backward()
    rec("m.grad", m.grad)
    rec("negative indices", x.detach()[[-1, -4]])
    with rec.raises("out of bounds", name="index 4 of size 4"):
        x[[0, 4]]


def case_boolean_masks(T, rec):
    x = T.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], requires_grad=True)
    mask = x > 0
    rec("mask", mask)
    rec("mask dtype", _n(mask.dtype))
    rec("mask requires_grad", mask.requires_grad)
    picked = x[mask]
    rec("picked", picked)
    rec("picked node", picked.grad_fn.name())
    (picked * 2).sum().backward()
    rec("x.grad", x.grad)
    rows = x[T.tensor([True, False])]
    rec("row mask", rows)
    y = x.detach().clone()
    y[y < 0] = 0.0
    rec("masked assignment", y)
    rec("masked assignment version", y._version)
    rec("count of True", mask.sum())
    rec("all / any", (bool(mask.all()), bool(mask.any())))


def case_setitem_on_nonleaf(T, rec):
    x = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    w = T.tensor(5.0, requires_grad=True)
    y = x * 2
    v0 = y._version
    y[0] = 100.0
    rec("after y[0] = 100", y)
    rec("node after setitem", y.grad_fn.name())
    rec("version bumped", y._version - v0)
    y[2:] = w * 3
    rec("after y[2:] = w * 3", y)
    rec("version bumped twice", y._version - v0)
    (y * T.tensor([1.0, 10.0, 100.0, 1000.0])).sum().backward()
    rec("x.grad", x.grad)
    rec("w.grad", w.grad)

    a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a * 1
    b[[0, 2]] = T.tensor([7.0, 8.0])
    rec("index put node", b.grad_fn.name())
    rec("index put", b)
    b.sum().backward()
    rec("a.grad after index put", a.grad)

    c = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    d = c.exp()
    m = d > 5
    d[m] = 0.0
    rec("mask put", d)
    with rec.raises("modified by an inplace operation", name="exp result overwritten"):
        d.sum().backward()

    leaf = T.tensor([1.0, 2.0], requires_grad=True)
    with rec.raises("leaf Variable", "in-place", name="setitem on a leaf"):
        leaf[0] = 3.0


def case_comparisons(T, rec):
    a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = T.tensor([3.0, 2.0, 1.0])
    results = {
        "a == b": a == b, "a != b": a != b, "a < b": a < b, "a <= b": a <= b,
        "a > b": a > b, "a >= b": a >= b, "a > 2": a > 2, "2 < a": 2 < a,
        "a == 2.0": a == 2.0, "int vs float": T.tensor([1, 2]) == T.tensor([1.0, 2.5]),
        "broadcast": T.tensor([[1.0], [2.0]]) < T.tensor([1.5, 2.5, 0.5]),
        "a.eq(b)": a.eq(b), "a.gt(1)": a.gt(1),
        "and": (a > 1) & (b > 1), "or": (a > 2) | (b > 2),
        "xor": (a > 1) ^ (b > 1), "invert": ~(a > 1),
    }
    for name, t in results.items():
        rec(name, t)
        rec(name + " dtype", _n(t.dtype))
        rec(name + " requires_grad", t.requires_grad)
        rec(name + " grad_fn is None", t.grad_fn is None)
    rec("equal", (T.tensor([1, 2]).equal(T.tensor([1, 2])), a.equal(b)))
    with rec.raises("ambiguous", name="bool of two elements"):
        bool(a > 1)
    rec("bool of one element", bool(T.tensor([2.0]) > 1))


# --- in-place ops and versions ---------------------------------------------------

def case_inplace_ops_and_versions(T, rec):
    x = T.tensor([1.0, 2.0, 3.0])
    steps = [
        ("add_", lambda: x.add_(1)),
        ("add_ alpha", lambda: x.add_(T.tensor([1.0, 1.0, 1.0]), alpha=2)),
        ("sub_", lambda: x.sub_(0.5)),
        ("mul_", lambda: x.mul_(T.tensor([2.0, 1.0, 0.5]))),
        ("div_", lambda: x.div_(2)),
        ("clamp_", lambda: x.clamp_(0.0, 3.0)),
        ("clamp_ min", lambda: x.clamp_(min=2.0)),
        ("fill_", lambda: x.fill_(7)),
        ("copy_", lambda: x.copy_(T.tensor([4, 5, 6]))),
        ("copy_ broadcast", lambda: x.copy_(T.tensor(9.0))),
        ("zero_", lambda: x.zero_()),
    ]
    for name, step in steps:
        out = step()
        rec(name + " returns self", out is x)
        rec(name, x)
        rec(name + " version", x._version)
    y = x
    y += 1
    rec("+= is in place", (y is x, x._version))
    y *= 3
    y -= 1
    y /= 2
    rec("after *= -= /=", x)
    rec("version after augmented", x._version)
    i = T.tensor([1, 2])
    i.add_(3)
    rec("int add_", i)
    with rec.raises("result type Float can't be cast to the desired output type Long",
                    name="int add_ float"):
        i.add_(1.5)
    with rec.raises("can't be cast", name="int div_"):
        i.div_(2)
    rec("int version after failed ops", i._version)
    i.mul_(2)
    rec("int mul_", i)
    with rec.raises("doesn't match the broadcast shape", name="add_ that would grow"):
        T.ones(3).add_(T.ones(2, 3))


def case_inplace_on_nonleaf_gradients(T, rec):
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.add_(1)
    rec("after add_ node", y.grad_fn.name())
    y.mul_(T.tensor([1.0, 10.0, 100.0]))
    rec("after mul_ node", y.grad_fn.name())
    y.div_(2)
    rec("after div_ node", y.grad_fn.name())
    y.sub_(x)
    rec("after sub_ node", y.grad_fn.name())
    rec("y", y)
    rec("y version", y._version)
    y.sum().backward()
    rec("x.grad", x.grad)

    p = T.tensor([1.0, -2.0, 3.0], requires_grad=True)
    q = p * 1
    q.clamp_(min=0.0)
    rec("clamp_ node", q.grad_fn.name())
    q.sum().backward()
    rec("clamp_ grad", p.grad)

    s = T.tensor([2.0, 3.0], requires_grad=True)
    t = T.tensor([5.0, 7.0], requires_grad=True)
    u = s * 1
    u.mul_(t)
    u.sum().backward()
    rec("mul_ grads", (s.grad, t.grad))

    f = T.tensor([1.0, 2.0], requires_grad=True)
    g = f * 3
    g.zero_()
    rec("zero_ node", g.grad_fn.name())
    g.sum().backward()
    rec("zero_ grad", f.grad)

    src = T.tensor([4.0, 5.0], requires_grad=True)
    dst = T.zeros(2)
    dst.copy_(src * 2)
    rec("copy_ into plain tensor requires_grad", dst.requires_grad)
    rec("copy_ node", dst.grad_fn.name())
    (dst * T.tensor([1.0, 3.0])).sum().backward()
    rec("copy_ grad", src.grad)


def case_inplace_through_views_with_grad(T, rec):
    x = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    y = x * 1
    v = y[1:3]
    v.mul_(10)
    rec("y after view mul_", y)
    rec("y node", y.grad_fn.name())
    rec("view node", v.grad_fn.name())
    rec("shared version", (y._version, v._version))
    (y * T.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    rec("x.grad", x.grad)

    a = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = a.exp()
    b[0].zero_()
    with rec.raises("modified by an inplace operation", name="exp output changed via a view"):
        b.sum().backward()

    c = T.tensor([1.0, 2.0], requires_grad=True)
    with rec.raises("view of a leaf Variable", "in-place", name="view of leaf"):
        c[0].add_(1)
    with rec.raises("view of a leaf Variable", name="reshape view of leaf"):
        c.view(2, 1).mul_(2)
    with T.no_grad():
        c[1].mul_(5)
    rec("view of leaf under no_grad", c)
    rec("still a leaf", (c.is_leaf, c.requires_grad, c._version))


# --- detach, data, conversions ------------------------------------------------------

def case_detach_and_data(T, rec):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    d = y.detach()
    rec("detach requires_grad", d.requires_grad)
    rec("detach is_leaf", d.is_leaf)
    rec("detach grad_fn None", d.grad_fn is None)
    rec("detach shares the version counter", (d._version, y._version))
    d.add_(1)
    rec("detach in-place is visible", y)
    rec("versions after detach add_", (d._version, y._version))

    e = x.exp()
    e.detach().mul_(2)
    with rec.raises("modified by an inplace operation", name="detach changes the saved output"):
        e.sum().backward()

    z = x.exp()
    zd = z.data
    rec(".data requires_grad", zd.requires_grad)
    rec(".data is_leaf", zd.is_leaf)
    zd.mul_(2)
    rec(".data writes through", z)
    rec(".data does not bump the version", z._version)
    z.sum().backward()
    rec("backward uses the changed value silently", x.grad)

    w = T.tensor([1.0, 2.0], requires_grad=True)
    w.data = T.tensor([5.0, 6.0])
    rec("assign .data", w)
    rec("assign .data keeps requires_grad", w.requires_grad)
    rec("detach of a leaf keeps data", w.detach())


def case_numpy_item_tolist(T, rec):
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]])
    a = x.numpy()
    rec("numpy type", type(a).__name__)
    rec("numpy dtype", str(a.dtype))
    rec("numpy", a)
    a[0, 0] = 100.0
    rec("numpy shares memory", x)
    rec("tolist", x.tolist())
    rec("tolist 0-d", T.tensor(2.5).tolist())
    rec("tolist int", T.tensor([1, 2]).tolist())
    rec("tolist bool", T.tensor([True, False]).tolist())
    rec("item float", T.tensor([2.5]).item())
    rec("item type float", type(T.tensor(2.5).item()).__name__)
    rec("item type int", type(T.tensor(3).item()).__name__)
    rec("item type bool", type(T.tensor(True).item()).__name__)
    rec("item of 1x1", T.tensor([[7.0]]).item())
    rec("float()", float(T.tensor(1.5)))
    rec("int()", int(T.tensor(2.7)))
    with rec.raises("a Tensor with 4 elements cannot be converted to Scalar", name="item of 4"):
        x.item()
    w = T.tensor([1.0, 2.0], requires_grad=True)
    with rec.raises("Can't call numpy() on Tensor that requires grad", name="numpy requires grad"):
        w.numpy()
    rec("detach().numpy()", w.detach().numpy())
    rec("tolist requires grad", w.tolist())
    rec("item requires grad", (w[1] * 2).item())
    i = T.tensor([1, 2, 3]).numpy()
    rec("int numpy dtype", str(i.dtype))


def case_to_and_conversions(T, rec):
    x = T.tensor([1.5, -2.5], requires_grad=True)
    rec("to same dtype is self", x.to(T.float32) is x)
    rec("to cpu is self", x.to("cpu") is x)
    rec("cpu() is self", x.cpu() is x)
    d = x.to(T.float64)
    rec("to float64", d)
    rec("to float64 dtype", _n(d.dtype))
    rec("to node", d.grad_fn.name())
    rec("double()", _n(x.double().dtype))
    rec("long()", x.long())
    rec("long() requires_grad", x.long().requires_grad)
    rec("int()", _n(x.int().dtype))
    rec("bool()", x.bool())
    rec("float() of int", T.tensor([1, 2]).float())
    rec("to(other)", _n(x.to(T.tensor([1], dtype=T.int64)).dtype))
    rec("to(dtype=)", _n(x.to(dtype=T.float64).dtype))
    rec("to(device, dtype)", _n(x.to("cpu", T.float64).dtype))
    rec("type_as", _n(x.type_as(T.tensor([1.0], dtype=T.float64)).dtype))
    (d * d).sum().backward()
    rec("grad through to()", x.grad)
    rec("grad keeps the leaf's dtype", _n(x.grad.dtype))
    n = T.tensor([1, 2]).to(T.float32).requires_grad_()
    rec("converted then requires_grad_", (n.requires_grad, n.is_leaf))


def case_requires_grad_rules(T, rec):
    x = T.tensor([1.0, 2.0])
    out = x.requires_grad_()
    rec("requires_grad_ returns self", out is x)
    rec("requires_grad_", (x.requires_grad, x.is_leaf))
    x.requires_grad_(False)
    rec("requires_grad_(False)", x.requires_grad)
    x.requires_grad = True
    rec("attribute set", x.requires_grad)
    y = x * 2
    rec("result requires_grad", (y.requires_grad, y.is_leaf))
    with rec.raises("you can only change requires_grad flags of leaf variables",
                    name="non-leaf requires_grad False"):
        y.requires_grad = False
    y.requires_grad_(True)
    rec("setting True on a non-leaf is fine", y.requires_grad)
    with rec.raises("floating point", "require gradients", name="int tensor(requires_grad)"):
        T.tensor([1, 2], requires_grad=True)
    with rec.raises("floating point", "require gradients", name="int requires_grad_"):
        T.tensor([1, 2]).requires_grad_()
    with rec.raises("floating point", "require gradients", name="int ones(requires_grad)"):
        T.ones(2, dtype=T.int64, requires_grad=True)
    with rec.raises("floating point", name="bool requires_grad attribute"):
        T.tensor([True]).requires_grad = True
    f = T.tensor([1.0], dtype=T.float64, requires_grad=True)
    rec("float64 may", f.requires_grad)
    a = T.tensor([1.0, 2.0])
    b = T.tensor([3.0, 4.0], requires_grad=True)
    c = a + b
    rec("mixed inputs", (c.requires_grad, c.grad_fn.name(), _edges(c.grad_fn)))
    with rec.raises("does not require grad and does not have a grad_fn",
                    name="backward of a constant"):
        (a * 2).sum().backward()


def case_retain_grad(T, rec):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    z = y.exp()
    rec("before retain", y.retains_grad)
    y.retain_grad()
    y.retain_grad()
    rec("after retain", y.retains_grad)
    x.retain_grad()
    rec("leaf retains_grad", x.retains_grad)
    out = (z * 0 + y * y).sum()
    out.backward(retain_graph=True)
    rec("y.grad", y.grad)
    rec("y.grad requires_grad", y.grad.requires_grad)
    rec("z.grad (not retained)", z.grad)
    out.backward()
    rec("y.grad accumulates", y.grad)
    rec("x.grad", x.grad)
    n = T.tensor([1.0])
    with rec.raises("can't retain_grad on Tensor that has requires_grad=False",
                    name="retain without grad"):
        n.retain_grad()


def case_retain_grad_and_hooks_order(T, rec):
    calls = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()                                  # before the hook...
    y.register_hook(lambda g: calls.append(("hook", g.tolist())) or g * 10)
    z = x * 3
    z.register_hook(lambda g: g + 1)
    z.retain_grad()                                  # ...and after
    (y + z).sum().backward()
    rec("y.grad sees the hook's result", y.grad)
    rec("z.grad sees the hook's result", z.grad)
    rec("calls", calls)
    rec("x.grad", x.grad)


# --- hooks -------------------------------------------------------------------------------

def case_tensor_hook_chaining_and_removal(T, rec):
    calls = []
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x

    def double(g):
        calls.append(("double sees", g.tolist()))
        return g * 2

    def plus_one(g):
        calls.append(("plus_one sees", g.tolist()))
        return g + 1

    def observe(g):
        calls.append(("observe sees", g.tolist()))

    h1 = y.register_hook(double)
    y.register_hook(plus_one)
    y.register_hook(observe)
    y.sum().backward(retain_graph=True)
    rec("calls", calls)
    rec("x.grad", x.grad)
    h1.remove()
    h1.remove()                # a second remove is harmless
    calls.clear()
    x.grad = None
    y.sum().backward(retain_graph=True)
    rec("calls after removing double", calls)
    rec("x.grad after removing double", x.grad)

    leaf_calls = []
    lh = x.register_hook(lambda g: leaf_calls.append("leaf") or g * 0)
    x.grad = None
    y.sum().backward(retain_graph=True)
    rec("leaf hook replaces the grad", x.grad)
    rec("leaf calls", leaf_calls)
    with lh:
        pass                    # handles are context managers: removed on exit
    x.grad = None
    y.sum().backward()
    rec("after handle context", x.grad)
    rec("leaf calls after", leaf_calls)


def case_hook_errors(T, rec):
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2

    def bad_shape(g):
        return T.ones(2)

    y.register_hook(bad_shape)
    with rec.raises("has changed the size of value", name="hook wrong shape"):
        y.sum().backward()

    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2

    def bad_dtype(g):
        return g.double()

    b.register_hook(bad_dtype)
    with rec.raises("has changed the type of value", name="hook wrong dtype"):
        b.sum().backward()

    c = T.tensor([1.0, 2.0])
    with rec.raises("cannot register a hook on a tensor that doesn't require gradient",
                    name="hook without grad"):
        c.register_hook(lambda g: g)
    d = T.tensor([1.0], requires_grad=True)
    with rec.raises("post accumulate grad hooks cannot be registered on non-leaf tensors",
                    name="post-accumulate on non-leaf"):
        (d * 2).register_post_accumulate_grad_hook(lambda t: None)


def case_hooks_order_across_the_graph(T, rec):
    calls = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    b = a.exp()
    c = a.sin()
    out = (b + c).sum()
    x.register_hook(lambda g: calls.append("x"))
    a.register_hook(lambda g: calls.append("a"))
    b.register_hook(lambda g: calls.append("b"))
    c.register_hook(lambda g: calls.append("c"))
    out.register_hook(lambda g: calls.append("out"))
    a.grad_fn.register_prehook(lambda go: calls.append("a node pre"))
    a.grad_fn.register_hook(lambda gi, go: calls.append("a node post"))
    x.register_post_accumulate_grad_hook(lambda t: calls.append("x post-accumulate"))
    out.backward()
    rec("order", calls)
    rec("x.grad", x.grad)


def case_node_hooks_replace_grads(T, rec):
    calls = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = T.tensor([3.0, 4.0], requires_grad=True)
    z = x * y
    node = z.grad_fn

    def pre(grad_outputs):
        calls.append(("pre", len(grad_outputs), grad_outputs[0].tolist()))
        return (grad_outputs[0] * 10,)

    def post(grad_inputs, grad_outputs):
        calls.append(("post", len(grad_inputs), grad_inputs[0].tolist(),
                      grad_inputs[1].tolist(), grad_outputs[0].tolist()))
        return (grad_inputs[0], grad_inputs[1] * 0)

    hpre = node.register_prehook(pre)
    hpost = node.register_hook(post)
    z.sum().backward(retain_graph=True)
    rec("calls", calls)
    rec("x.grad", x.grad)
    rec("y.grad", y.grad)
    hpre.remove()
    hpost.remove()
    x.grad = y.grad = None
    z.sum().backward()
    rec("after removal x.grad", x.grad)
    rec("after removal y.grad", y.grad)
    rec("calls after removal", len(calls))


def case_post_accumulate_grad_hook(T, rec):
    seen = []
    p = T.tensor([1.0, 2.0], requires_grad=True)

    def sgd_step(param):
        seen.append(("grad when hook runs", param.grad.tolist()))
        with T.no_grad():
            param.sub_(param.grad * 0.5)
        param.grad = None

    handle = p.register_post_accumulate_grad_hook(sgd_step)
    (p * p).sum().backward()
    rec("seen", seen)
    rec("p updated in the hook", p)
    rec("p.grad cleared by the hook", p.grad is None)
    handle.remove()
    (p * 3).sum().backward()
    rec("after removal p.grad", p.grad)
    rec("seen count", len(seen))

    order = []
    q = T.tensor([1.0], requires_grad=True)
    q.register_post_accumulate_grad_hook(lambda t: order.append(("post", t.grad.tolist())))
    q.register_hook(lambda g: order.append(("tensor hook", g.tolist())) or g * 2)
    (q * 5).sum().backward(retain_graph=False)
    rec("tensor hook before accumulation, post after", order)


# --- graph structure ---------------------------------------------------------------------

def case_next_functions_structure(T, rec):
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0, 4.0], requires_grad=True)
    c = T.tensor([5.0, 6.0])                      # no grad
    y = (a * b + c.exp() * a).sum()
    node = y.grad_fn
    rec("sum", node.name())
    rec("sum edges", _edges(node))
    add = node.next_functions[0][0]
    rec("add edges", _edges(add))
    mul_ab = add.next_functions[0][0]
    rec("mul ab edges", _edges(mul_ab))
    mul_ca = add.next_functions[1][0]
    rec("mul c.exp() a edges", _edges(mul_ca))
    acc = mul_ab.next_functions[0][0]
    rec("AccumulateGrad.variable is the leaf", acc.variable is a)
    rec("same AccumulateGrad for both uses of a",
        acc is mul_ca.next_functions[1][0])
    rec("leaf grad_fn is None", a.grad_fn is None)
    rec("leaf has no next_functions to show", a.is_leaf)

    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v, i = x.max(0)
    rec("max(dim) edges", _edges(v.grad_fn))
    s = x[1:].view(2, 1).t().squeeze()
    chain = []
    n = s.grad_fn
    while n is not None and n.next_functions:
        chain.append(n.name())
        n = n.next_functions[0][0]
    rec("view chain", chain)
    m = T.ones(2, 3, requires_grad=True).mm(T.ones(3, 2))
    rec("mm edges", _edges(m.grad_fn))


def case_next_functions_with_numbers(T, rec):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    ops = {
        "x * 2": x * 2, "2 * x": 2 * x, "x + 2": x + 2, "2 + x": 2 + x,
        "x * 2.5": x * 2.5, "x + True": x + True, "x - 2": x - 2, "2 - x": 2 - x,
        "x / 2": x / 2, "2 / x": 2 / x, "x ** 2": x ** 2, "2 ** x": 2 ** x,
        "x.clamp(0, 1)": x.clamp(0, 1), "-x": -x,
    }
    for name, y in ops.items():
        rec(name + " node", y.grad_fn.name())
        rec(name + " edges", _edges(y.grad_fn))


def case_grad_fn_names(T, rec):
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = T.tensor([[0.5, 1.5], [2.5, 3.5]], requires_grad=True)
    made = {
        "add": x + y, "sub": x - y, "mul": x * y, "div": x / y, "neg": -x,
        "pow number": x ** 3, "pow tensor": x ** y, "rpow": 3 ** x,
        "exp": x.exp(), "log": x.log(), "sin": x.sin(), "cos": x.cos(),
        "tanh": x.tanh(), "sigmoid": x.sigmoid(), "relu": x.relu(), "sqrt": x.sqrt(),
        "abs": x.abs(), "clamp": x.clamp(1, 2), "clamp min": x.clamp(min=1),
        "clamp max": x.clamp(max=2),
        "sum": x.sum(), "sum dim": x.sum(0), "mean": x.mean(), "mean dim": x.mean(1),
        "max": x.max(), "min": x.min(), "max dim": x.max(0)[0], "min dim": x.min(1)[0],
        "view": x.view(4), "reshape": x.reshape(4), "transpose": x.transpose(0, 1),
        "t": x.t(), "T": x.T, "permute": x.permute(1, 0), "squeeze": x.squeeze(),
        "squeeze dim": x.squeeze(0), "unsqueeze": x.unsqueeze(0), "expand": x.expand(3, 2, 2),
        "select": x[0], "slice": x[:, 1:], "index": x[[0, 1]], "mask": x[x > 2],
        "mm": x.mm(y), "matmul": x @ y, "clone": x.clone(), "to": x.to(T.float64),
        "add alpha": x.add(y, alpha=2), "sub alpha": x.sub(y, alpha=2),
    }
    for name, t in made.items():
        rec(name, t.grad_fn.name())


# --- saved tensors ------------------------------------------------------------------------

def case_saved_tensors_hooks_nesting(T, rec):
    log = []

    def make(tag):
        def pack(t):
            log.append((tag, "pack"))
            return (tag, t)

        def unpack(box):
            log.append((box[0], "unpack"))
            return box[1]
        return pack, unpack

    x = T.tensor([1.0, 2.0], requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(*make("outer")):
        a = x.exp()
        with T.autograd.graph.saved_tensors_hooks(*make("inner")):
            b = a.sin()
        c = b.tanh()
    d = c.exp()                  # no hooks any more
    rec("packed", sorted(log))
    n = len(log)
    d.sum().backward()
    rec("unpacked", sorted(log[n:]))
    rec("x.grad", x.grad)


def case_saved_tensors_hooks_and_versions(T, rec):
    seen = []

    def pack(t):
        seen.append(("pack version", t._version))
        return t.clone()              # a copy: later in-place changes do not reach it

    def unpack(t):
        return t

    x = T.tensor([1.0, 2.0], requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x * 1
        z = y.sin()
    y.mul_(100)                       # would be an error without the hooks
    z.sum().backward()
    rec("seen", seen)
    rec("x.grad uses the packed copy", x.grad)

    def bad_unpack(t):
        return "not a tensor"

    q = T.tensor([1.0], requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(lambda t: t, bad_unpack):
        r = q.exp()
    with rec.raises("unpack_hook", name="unpack returns a non-tensor"):
        r.sum().backward()


def case_save_on_cpu(T, rec):
    x = T.tensor([0.5, 1.0, 1.5], requires_grad=True)
    w = T.tensor([2.0, -1.0, 0.5], requires_grad=True)
    with T.autograd.graph.save_on_cpu():
        y = (x * w).tanh().exp()
    rec("y", y)
    y.sum().backward()
    rec("x.grad", x.grad)
    rec("w.grad", w.grad)
    with T.autograd.graph.save_on_cpu(pin_memory=False):
        z = (x ** 3).sum()
    (g,) = T.autograd.grad(z, x)
    rec("grad under save_on_cpu", g)


def case_saved_tensors_freed_and_custom_second_time(T, rec):
    class Square(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = T.tensor([3.0], requires_grad=True)
    y = Square.apply(x)
    y.backward(retain_graph=True)
    rec("first", x.grad)
    y.backward()
    rec("second (retained)", x.grad)
    with rec.raises("backward through the graph a second time", name="third"):
        y.backward()
    u = x * x
    v = u * 2
    T.autograd.grad(v, x)
    with rec.raises("second time", name="grad then backward"):
        v.backward()
    p = x.exp()
    p.backward()
    rec("x.grad after exp", x.grad)
    q = x * 5                      # the number 5 is saved (as a 0-dim tensor)...
    q.backward()
    with rec.raises("second time", name="x * 5 twice"):
        q.backward()
    d = x / 5
    d.backward()
    with rec.raises("second time", name="x / 5 twice"):
        d.backward()
    s = x + 5                      # ...but + saves nothing: a second backward is fine
    s.backward()
    s.backward()
    t = 5 - x
    t.backward()
    t.backward()
    rec("backward twice through graphs that saved nothing", x.grad)


# --- custom Functions ---------------------------------------------------------------------

def case_custom_function_identity_and_views(T, rec):
    class Identity(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = Identity.apply(x)
    rec("returned input is a new tensor", y is x)
    rec("same values", y)
    rec("y.grad_fn", y.grad_fn.name())
    rec("y is not a leaf", y.is_leaf)
    rec("y shares x's version", y._version == x._version)
    y.sum().backward()
    rec("x.grad", x.grad)

    class ViewOut(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view(-1)

        @staticmethod
        def backward(ctx, g):
            return g.view(2, 2)

    m = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    out = ViewOut.apply(m)
    rec("view out node", out.grad_fn.name())
    (out * T.arange(4.0)).sum().backward()
    rec("m.grad", m.grad)

    class NoGradInside(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            inner = x * 3
            ctx.flags = (T.is_grad_enabled(), inner.requires_grad, inner.grad_fn is None)
            return inner

        @staticmethod
        def backward(ctx, g):
            ctx.back_flag = T.is_grad_enabled()
            return g * 3

    k = T.tensor([1.0], requires_grad=True)
    o = NoGradInside.apply(k)
    rec("forward runs in no_grad", o.grad_fn.flags)
    o.backward()
    rec("backward grad mode (no create_graph)", o.grad_fn.back_flag)
    o2 = NoGradInside.apply(k)
    T.autograd.grad(o2.sum(), k, create_graph=True)
    rec("backward grad mode (create_graph)", o2.grad_fn.back_flag)


def case_custom_function_multiple_outputs(T, rec):
    class SplitScale(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y, x + y, x - y

        @staticmethod
        def backward(ctx, g_prod, g_sum, g_diff):
            x, y = ctx.saved_tensors
            return g_prod * y + g_sum + g_diff, g_prod * x + g_sum - g_diff

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = T.tensor([3.0, 5.0], requires_grad=True)
    p, s, d = SplitScale.apply(x, y)
    rec("outputs", (p, s, d))
    rec("same node", (p.grad_fn is s.grad_fn, s.grad_fn is d.grad_fn))
    rec("node name", p.grad_fn.name())
    rec("edges", _edges(p.grad_fn))
    (p.sum() * 1 + d.sum() * 10).backward()
    rec("x.grad (sum output unused: zeros)", x.grad)
    rec("y.grad", y.grad)

    class WithNonTensor(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, "label", 3

        @staticmethod
        def backward(ctx, g, g_label, g_int):
            ctx.extra = (g_label, g_int)
            return g * 2

    z = T.tensor([1.0], requires_grad=True)
    out, label, number = WithNonTensor.apply(z)
    rec("non-tensor outputs pass through", (label, number))
    out.backward()
    rec("grads of non-tensor outputs", out.grad_fn.extra)
    rec("z.grad", z.grad)


def case_custom_function_non_tensor_args(T, rec):
    seen = []

    class Affine(T.autograd.Function):
        @staticmethod
        def forward(ctx, scale, x, options, bias, shift=0.0):
            seen.append(("needs", tuple(ctx.needs_input_grad)))
            ctx.scale, ctx.options = scale, options
            return x * scale + bias + shift

        @staticmethod
        def backward(ctx, g):
            return None, g * ctx.scale, None, g.sum(0), None

    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = T.tensor([0.5, 0.5], requires_grad=True)
    y = Affine.apply(2.0, x, {"mode": "fast"}, b)
    rec("y", y)
    rec("edges (tensors only)", _edges(y.grad_fn))
    y.sum().backward()
    rec("seen", seen)
    rec("x.grad", x.grad)
    rec("b.grad", b.grad)
    y2 = Affine.apply(3.0, x, None, b, shift=1.0)
    rec("keyword argument", y2)
    rec("needs with keyword", seen[-1])

    class ExtraNones(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, None, None

    e = T.tensor([1.0], requires_grad=True)
    ExtraNones.apply(e).backward()
    rec("extra trailing Nones are allowed", e.grad)

    class GradForNumber(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * 2, g

    with rec.raises("returned a gradient different than None at position 2",
                    "not a Variable", name="grad for a number"):
        GradForNumber.apply(e, 2).backward()


def case_custom_function_gradient_checks(T, rec):
    class BroadcastGrad(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g.expand(4, 3)          # larger than x: summed back to x's shape

    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    BroadcastGrad.apply(x).sum().backward()
    rec("broadcast gradient is summed", x.grad)

    class TooSmall(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g.sum().view(1)

    y = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with rec.raises("invalid gradient at index 0", "expected shape compatible with [3]",
                    name="gradient of shape [1]"):
        TooSmall.apply(y).sum().backward()

    class WrongDtype(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g.double()

    z = T.tensor([1.0, 2.0], requires_grad=True)
    WrongDtype.apply(z).sum().backward()
    rec("gradient cast to the input's dtype", _n(z.grad.dtype))
    rec("z.grad", z.grad)

    class ReturnsNone(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return None, g

    a = T.tensor([1.0], requires_grad=True)
    b = T.tensor([2.0], requires_grad=True)
    ReturnsNone.apply(a, b).backward()
    rec("None gradient leaves .grad None", a.grad is None)
    rec("b.grad", b.grad)

    class TooMany(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g, g

    with rec.raises("incorrect number of gradients", "expected 1, got 2", name="too many"):
        TooMany.apply(a).backward()


def case_custom_function_mark_dirty_rules(T, rec):
    class Double_(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    leaf = T.tensor([1.0, 2.0], requires_grad=True)
    with rec.raises("a leaf Variable that requires grad", name="dirty leaf"):
        Double_.apply(leaf)

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x + 0
    out = Double_.apply(y)
    rec("returned the same tensor", out is y)
    rec("node", y.grad_fn.name())
    rec("edges", _edges(y.grad_fn))
    (y * y).sum().backward()
    rec("x.grad", x.grad)

    plain = T.tensor([1.0, 3.0])
    r = Double_.apply(plain)
    rec("no grad needed: no node", (r.requires_grad, r.grad_fn is None, plain.tolist()))

    class SaveThenDirty(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x

    p = T.tensor([1.0, 2.0], requires_grad=True)
    q = p * 1
    SaveThenDirty.apply(q)
    q.sum().backward()
    rec("saved dirty tensor is the output", p.grad)


def case_custom_function_mark_dirty_bumps_the_version(T, rec):
    class Double_(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x + 0
    Double_.apply(y)
    rec("mul_ and mark_dirty each bump the version", y._version)
    plain = T.tensor([1.0, 3.0])
    Double_.apply(plain)
    rec("also when nothing requires grad", plain._version)
    with T.no_grad():
        z = x + 0
        Double_.apply(z)
    rec("also under no_grad", z._version)
    u = x + 0
    u.mul_(2)
    rec("a built-in in-place op bumps once", u._version)


def case_custom_function_non_differentiable_outputs(T, rec):
    class ArgSortLike(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            values = x * 1
            order = (x > 1).long()
            ctx.mark_non_differentiable(order)
            ctx.save_for_backward(order)
            return values, order

        @staticmethod
        def backward(ctx, g_values, g_order):
            (order,) = ctx.saved_tensors
            ctx.seen = (g_order is None, order.tolist())
            return g_values

    x = T.tensor([0.5, 2.0, 3.0], requires_grad=True)
    values, order = ArgSortLike.apply(x)
    rec("order requires_grad", order.requires_grad)
    rec("order is_leaf", order.is_leaf)
    rec("order grad_fn", order.grad_fn is None)
    rec("values requires_grad", values.requires_grad)
    values.sum().backward()
    rec("seen", values.grad_fn.seen)

    class FloatNonDiff(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            mask = (x > 1).float()
            ctx.mark_non_differentiable(mask)
            return mask

        @staticmethod
        def backward(ctx, g):
            return g

    m = FloatNonDiff.apply(x)
    rec("float non-differentiable output", (m.requires_grad, m.grad_fn is None))
    with rec.raises("does not require grad", name="backward of a non-differentiable output"):
        m.sum().backward()

    class IntOut(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return (x * 10).long()

        @staticmethod
        def backward(ctx, g):
            return g

    k = IntOut.apply(x)
    rec("integer output does not require grad", (k.requires_grad, _n(k.dtype)))


def case_custom_function_materialize_grads(T, rec):
    seen = []

    class Pair(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, materialize):
            ctx.set_materialize_grads(materialize)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            seen.append((g1 is None, None if g2 is None else g2.tolist()))
            total = g2 * 3 if g2 is not None else None
            if g1 is not None:
                total = g1 * 2 if total is None else total + g1 * 2
            return total, None

    for materialize in (True, False):
        x = T.tensor([1.0, 2.0], requires_grad=True)
        a, b = Pair.apply(x, materialize)
        b.sum().backward()
        rec(f"x.grad materialize={materialize}", x.grad)
    rec("seen", seen)


def case_custom_function_setup_errors(T, rec):
    class NoForward(T.autograd.Function):
        @staticmethod
        def backward(ctx, g):
            return g

    with rec.raises("forward", name="forward not implemented"):
        NoForward.apply(T.tensor([1.0], requires_grad=True))

    class NoBackward(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    y = NoBackward.apply(T.tensor([1.0], requires_grad=True))
    with rec.raises("backward", name="backward not implemented"):
        y.backward()

    class SaveTwice(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.save_for_backward(x, x * 2)        # the last call wins
            return x * 1

        @staticmethod
        def backward(ctx, g):
            saved = ctx.saved_tensors
            ctx.count = len(saved)
            return g * saved[1]

    z = T.tensor([3.0], requires_grad=True)
    out = SaveTwice.apply(z)
    out.backward()
    rec("last save_for_backward wins", (out.grad_fn.count, z.grad.tolist()))


# --- version counter errors ------------------------------------------------------------------

def case_version_errors_of_builtins(T, rec):
    makers = {
        "exp output": lambda x: x.exp(),
        "tanh output": lambda x: x.tanh(),
        "sigmoid output": lambda x: x.sigmoid(),
        "sqrt output": lambda x: x.sqrt(),
    }
    for name, make in makers.items():
        x = T.tensor([1.0, 2.0], requires_grad=True)
        y = make(x)
        y.mul_(2)
        with rec.raises("modified by an inplace operation", "is at version 1",
                        "expected version 0", name=name):
            y.sum().backward()
    inputs = {
        "sin input": lambda x: x.sin(),
        "log input": lambda x: x.log(),
        "mul input": lambda x: x * T.tensor([2.0, 3.0], requires_grad=True),
        "pow input": lambda x: x ** 3,
        "div input (denominator)": lambda x: T.tensor([1.0, 1.0], requires_grad=True) / x,
    }
    for name, make in inputs.items():
        x = T.tensor([1.0, 2.0], requires_grad=True)
        h = x * 1
        y = make(h)
        h.add_(1)
        h.add_(1)
        with rec.raises("modified by an inplace operation", "is at version 2",
                        "expected version 0", name=name):
            y.sum().backward()
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = a * 1
    c = b * 3                   # a number: b is not saved
    b.add_(1)
    c.sum().backward()
    rec("no error when nothing saved was changed", a.grad)
    d = a * 1
    e = d + d                   # add saves nothing
    d.mul_(2)
    e.sum().backward()
    rec("add saves nothing", a.grad)


def case_version_error_message(T, rec):
    x = T.tensor([0.5, 1.5, 2.5], requires_grad=True)
    y = x.exp()
    y.add_(1)
    with rec.raises("[torch.FloatTensor [3]], which is output 0 of Exp, "
                    "is at version 1; expected version 0 instead",
                    name="output message"):
        y.sum().backward()
    a = T.tensor([[1.0, 2.0]], dtype=T.float64, requires_grad=True)
    b = a * 1
    c = b.sin()
    b.mul_(2)
    with rec.raises("[torch.DoubleTensor [1, 2]], which is output 0 of Mul, "
                    "is at version 1; expected version 0 instead",
                    name="input message"):
        c.sum().backward()
    leaf = T.tensor([1.0, 2.0], requires_grad=True)
    s = leaf.sin()
    with T.no_grad():
        leaf.add_(1)
    with rec.raises("[torch.FloatTensor [2]] is at version 1; expected version 0 instead",
                    name="leaf message"):
        s.sum().backward()
    p = leaf * 1
    q = p.cos()
    p.add_(1)
    p.add_(1)
    with rec.raises("which is output 0 of Add, is at version 2; expected version 0 instead",
                    name="input changed since: the current grad_fn is named"):
        q.sum().backward()
    r = leaf * 1
    t = r.cos()
    r[0] = 5.0
    with rec.raises("which is output 0 of torch::autograd::CopySlices, is at version 1",
                    name="CopySlices keeps its full name"):
        t.sum().backward()

    class SaveOut(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            a, b = x * 2, x * 3
            ctx.save_for_backward(b)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            (b,) = ctx.saved_tensors
            return ga + gb * b

    a, b = SaveOut.apply(leaf)
    b.mul_(2)
    with rec.raises("which is output 1 of SaveOut, is at version 1; expected version 0",
                    name="custom Function output"):
        a.sum().backward()


def case_inplace_then_backward_ok_patterns(T, rec):
    x = T.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = x * 2
    z = y.clone()
    y.mul_(3)               # z was cloned before: its history is unaffected
    (z.exp() + y).sum().backward()
    rec("x.grad", x.grad)
    w = T.tensor([1.0, 2.0], requires_grad=True)
    out = w.sin()
    s = out * 1
    out2 = s.exp()
    s2 = out2.clone()
    s2.add_(1)
    s2.sum().backward()
    rec("w.grad", w.grad)


# --- autograd.grad and backward ----------------------------------------------------------------

def case_autograd_grad_options(T, rec):
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x ** 2
    (g,) = T.autograd.grad(y, x, grad_outputs=T.tensor([1.0, 0.5, 0.25]), retain_graph=True)
    rec("grad_outputs", g)
    (g2,) = T.autograd.grad([y], [x], [T.ones(3)], retain_graph=True)
    rec("lists", g2)
    a = T.tensor(2.0, requires_grad=True)
    b = T.tensor(3.0, requires_grad=True)
    f = a * a * b
    ga, gb = T.autograd.grad(f, (a, b), create_graph=True)
    rec("first order", (ga, gb))
    rec("create_graph makes differentiable grads", (ga.requires_grad, ga.grad_fn is not None))
    gaa, gab = T.autograd.grad(ga, (a, b), retain_graph=True)
    rec("second order", (gaa, gab))
    (gab_only,) = T.autograd.grad(ga, b)
    rec("mixed second order", gab_only)
    rec("leaves untouched", (a.grad is None, b.grad is None))
    o1 = (x * 2).sum()
    o2 = (x * x).sum()
    (both,) = T.autograd.grad([o1, o2], [x], retain_graph=True)
    rec("two outputs sum their grads", both)
    (weighted,) = T.autograd.grad([o1, o2], [x], [T.tensor(1.0), T.tensor(10.0)])
    rec("weighted outputs", weighted)
    u = T.tensor([1.0], requires_grad=True)
    v = T.tensor([1.0], requires_grad=True)
    res = T.autograd.grad((u * 3).sum(), [u, v], allow_unused=True)
    rec("allow_unused", res)
    res = T.autograd.grad((u * 3).sum(), [u, v], allow_unused=True, materialize_grads=True)
    rec("materialize_grads", res)
    with rec.raises("One of the differentiated Tensors does not require grad",
                    name="input without grad"):
        T.autograd.grad((u * 3).sum(), [T.tensor([1.0])])
    with rec.raises("element 0 of tensors does not require grad", name="output without grad"):
        T.autograd.grad(T.tensor(1.0), [u])
    with rec.raises("Mismatch in shape", name="grad_outputs shape"):
        T.autograd.grad(x * 2, x, grad_outputs=T.ones(2))
    with rec.raises("grad can be implicitly created only for scalar outputs",
                    name="vector without grad_outputs"):
        T.autograd.grad(x * 2, x)


def case_autograd_grad_through_intermediate(T, rec):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    y = (h * h).sum()
    gh, gx = T.autograd.grad(y, [h, x], retain_graph=True)
    rec("w.r.t. an intermediate", gh)
    rec("w.r.t. the leaf", gx)
    calls = []
    x.register_hook(lambda g: calls.append("x hook"))
    h.register_hook(lambda g: calls.append("h hook"))
    T.autograd.grad(y, [h])
    rec("only the needed hooks run", calls)


def case_backward_inputs(T, rec):
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0, 4.0], requires_grad=True)
    y = (a * b).sum()
    y.backward(inputs=[a], retain_graph=True)
    rec("a.grad", a.grad)
    rec("b.grad stays None", b.grad is None)
    y.backward(inputs=[b, a], retain_graph=True)
    rec("a.grad accumulates", a.grad)
    rec("b.grad", b.grad)
    h = a * 2
    z = (h * b).sum()
    z.backward(inputs=[h])
    rec("grad for a non-leaf input", h.grad)
    rec("a.grad unchanged", a.grad)
    p = T.tensor([1.0, 2.0], requires_grad=True)
    hp = p * 2
    (hp * hp * p).sum().backward(inputs=[hp, p], create_graph=True)
    rec("inputs with create_graph", (hp.grad, p.grad))
    rec("inputs with create_graph: nodes", (hp.grad.grad_fn.name(), p.grad.grad_fn.name()))
    c = T.tensor([1.0], requires_grad=True)
    T.autograd.backward([(c * 3).sum(), (c * 4).sum()], inputs=[c])
    rec("autograd.backward with two roots", c.grad)


def case_backward_gradient_and_create_graph(T, rec):
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x ** 3
    with rec.raises("grad can be implicitly created only for scalar outputs", name="implicit"):
        y.backward()
    with rec.raises("Mismatch in shape", name="wrong gradient shape"):
        y.backward(T.ones(2))
    y.backward(T.tensor([1.0, 1.0, 1.0]), create_graph=True)
    rec("x.grad", x.grad)
    rec("x.grad requires grad (create_graph)", x.grad.requires_grad)
    rec("x.grad node", x.grad.grad_fn.name() if x.grad.grad_fn else None)
    rec("x.grad edges", _edges(x.grad.grad_fn))
    g = x.grad
    x.grad = None
    g.sum().backward()
    rec("second derivative via backward", x.grad)
    k = T.tensor([1.0, 2.0], requires_grad=True)
    h = k ** 2
    h.retain_grad()
    (h * h).sum().backward(create_graph=True)
    rec("retained grad with create_graph", (h.grad, h.grad.grad_fn.name()))
    rec("leaf grad with create_graph", k.grad.grad_fn.name())
    (h * h).sum().backward(create_graph=True)
    rec("accumulated with create_graph", (k.grad, k.grad.grad_fn.name()))
    lin = T.tensor([1.0, 2.0], requires_grad=True)
    (lin * 2).sum().backward(create_graph=True)
    rec("constant gradient with create_graph", (lin.grad, lin.grad.requires_grad))
    s = T.tensor(2.0, requires_grad=True)
    t = s * s
    t.backward(T.tensor(3.0))
    rec("0-dim with explicit gradient", s.grad)
    one = T.tensor([5.0], requires_grad=True)
    (one * 2).backward()
    rec("one-element output is fine", one.grad)
    with rec.raises("does not require grad", name="backward on a leaf without grad"):
        T.tensor([1.0]).backward()


def case_grad_accumulation_and_assignment(T, rec):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    for _ in range(3):
        (x * x).sum().backward()
    rec("three backwards accumulate", x.grad)
    g = x.grad
    (x * 3).sum().backward()
    rec("accumulation is in place", g is x.grad)
    x.grad.zero_()
    rec("zeroed", x.grad)
    x.grad = None
    (x * 2).sum().backward()
    rec("after None", x.grad)
    x.grad = T.tensor([10.0, 20.0])
    (x * 2).sum().backward()
    rec("after assignment", x.grad)
    with rec.raises("assigned grad expected to be a Tensor or None", name="grad not a tensor"):
        x.grad = [1.0, 2.0]
    with rec.raises("size", name="grad of a wrong size"):
        x.grad = T.ones(3)
    unused = T.tensor([1.0], requires_grad=True)
    other = T.tensor([1.0], requires_grad=True)
    (other * 2).sum().backward()
    rec("unused leaf keeps None", unused.grad is None)
    with T.no_grad():
        nograd_path = unused * 5
    rec("no_grad result", (nograd_path.requires_grad, nograd_path.grad_fn is None))


def case_engine_order_wide_graph(T, rec):
    order = []

    def tracker(name):
        def hook(g):
            order.append(name)
        return hook

    x = T.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    b = x * 3
    c = a + b
    d = a * c
    e = b.exp()
    f = d + e
    for name, t in (("a", a), ("b", b), ("c", c), ("d", d), ("e", e), ("f", f)):
        t.register_hook(tracker(name))
    f.sum().backward()
    rec("hook order", order)
    rec("x.grad", x.grad)


# --- grad modes ----------------------------------------------------------------------------------

def case_grad_mode_managers(T, rec):
    x = T.tensor([1.0], requires_grad=True)
    with T.no_grad():
        rec("inside no_grad", T.is_grad_enabled())
        with T.enable_grad():
            rec("enable_grad inside no_grad", T.is_grad_enabled())
            y = x * 2
        z = x * 2
    rec("y records", y.requires_grad)
    rec("z does not", z.requires_grad)
    with T.set_grad_enabled(False):
        rec("set_grad_enabled(False)", T.is_grad_enabled())
        with T.set_grad_enabled(True):
            rec("nested set_grad_enabled(True)", T.is_grad_enabled())
        rec("restored to False", T.is_grad_enabled())
    rec("restored to True", T.is_grad_enabled())
    T.set_grad_enabled(False)
    rec("as a function", T.is_grad_enabled())
    T.set_grad_enabled(True)
    rec("back on", T.is_grad_enabled())

    @T.no_grad()
    def infer(t):
        return t * 3, T.is_grad_enabled()

    out, mode = infer(x)
    rec("no_grad decorator", (out.requires_grad, mode, T.is_grad_enabled()))

    @T.enable_grad()
    def train(t):
        return t * 3

    with T.no_grad():
        rec("enable_grad decorator", train(x).requires_grad)

    @T.set_grad_enabled(False)
    def frozen(t):
        return t * 3

    rec("set_grad_enabled decorator", (frozen(x).requires_grad, T.is_grad_enabled()))
    try:
        with T.no_grad():
            raise ValueError("boom")
    except ValueError:
        pass
    rec("restored after an exception", T.is_grad_enabled())
    with T.autograd.no_grad():
        rec("autograd.no_grad", T.is_grad_enabled())


def case_no_grad_and_backward(T, rec):
    w = T.tensor([1.0, 2.0], requires_grad=True)
    y = (w * w).sum()
    with T.no_grad():
        y.backward()                 # backward works under no_grad
        rec("w.grad under no_grad", w.grad)
        w -= 0.1 * w.grad            # the classic update
    rec("updated", w)
    rec("still a leaf", (w.is_leaf, w.requires_grad, w._version))
    w.grad = None
    z = w * 2
    with T.no_grad():
        z.mul_(3)
    rec("in-place under no_grad keeps z's history", z.grad_fn.name())
    z.sum().backward()
    rec("gradient ignores the no_grad change", w.grad)


def case_view_made_under_no_grad(T, rec):
    w = T.tensor([1.0, 2.0], requires_grad=True)
    with T.no_grad():
        v = w[0]
        m = w * 1
    rec("a view made under no_grad still requires grad", v.requires_grad)
    rec("...but has no grad_fn", (v.grad_fn is None, v.is_leaf))
    rec("a non-view result does not", m.requires_grad)
    y = v * 2
    rec("ops on it record", (y.requires_grad, y.grad_fn and _edges(y.grad_fn)))
    y.backward()
    rec("no gradient reaches the base", w.grad is None)


# --- gradcheck, anomaly -------------------------------------------------------------------------

def case_gradcheck_builtins(T, rec):
    x = T.tensor([[0.3, -0.7], [1.1, 0.5]], dtype=T.float64, requires_grad=True)
    y = T.tensor([[0.9, 0.2], [-0.4, 1.3]], dtype=T.float64, requires_grad=True)
    funcs = {
        "mul div": lambda a, b: a * b / (b * b + 1),
        "exp log": lambda a, b: (a.exp() + b.abs()).log(),
        "trig": lambda a, b: a.sin() * b.cos() + a.tanh(),
        "sigmoid pow": lambda a, b: a.sigmoid() ** 2 - b ** 3,
        "matmul": lambda a, b: a @ b.t(),
        "reductions": lambda a, b: (a.sum(0) * b.mean(1)).max(),
        "max dim": lambda a, b: a.max(dim=1)[0] + b.min(dim=0)[0],
        "shapes": lambda a, b: a.view(4)[[0, 3, 3]] * b.t().reshape(4)[1:],
        "broadcast": lambda a, b: a[0] + b[:, :1],
        "clamp sqrt": lambda a, b: a.clamp(-0.5, 0.6) + (b * b + 1).sqrt(),
    }
    for name, fn in funcs.items():
        rec(name, T.autograd.gradcheck(fn, (x, y), eps=1e-6, atol=1e-5))
        rec(name + " gradgrad", T.autograd.gradgradcheck(
            fn, (x, y), grad_outputs=[T.ones_like(fn(x, y))]))


def case_gradgradcheck_custom(T, rec):
    class Cube(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x ** 2

    class CubeWrongSecond(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x.detach() ** 2      # right values, no second derivative

    x = T.tensor([0.5, -1.2, 2.0], dtype=T.float64, requires_grad=True)
    go = T.tensor([1.0, 2.0, -1.0], dtype=T.float64, requires_grad=True)
    rec("gradcheck Cube", T.autograd.gradcheck(Cube.apply, (x,)))
    rec("gradgradcheck Cube", T.autograd.gradgradcheck(Cube.apply, (x,), (go,)))
    rec("gradcheck wrong-second", T.autograd.gradcheck(CubeWrongSecond.apply, (x,)))
    rec("gradgradcheck wrong-second", T.autograd.gradgradcheck(
        CubeWrongSecond.apply, (x,), (go,), raise_exception=False))
    (g,) = T.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
    (h,) = T.autograd.grad(g.sum(), x)
    rec("second derivative of Cube", h)


def case_detect_anomaly(T, rec):
    x = T.tensor([0.0, 1.0], requires_grad=True)
    y = (x.sqrt() * 0).sum()
    y.backward(retain_graph=True)
    rec("nan without anomaly mode", x.grad)
    x.grad = None
    with T.autograd.detect_anomaly():
        with rec.raises("Function 'SqrtBackward0' returned nan values in its 0th output",
                        name="nan found"):
            y.backward()

    class Fails(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            raise ValueError("custom backward failed")

    with T.autograd.detect_anomaly():
        z = Fails.apply(T.tensor([1.0], requires_grad=True))
        with rec.raises("custom backward failed", name="error passes through"):
            z.backward()
    with T.autograd.detect_anomaly(check_nan=False):
        w = T.tensor([0.0], requires_grad=True)
        (w.sqrt() * 0).sum().backward()
        rec("check_nan=False", w.grad)
    with T.autograd.set_detect_anomaly(True):
        q = T.tensor([-1.0], requires_grad=True)
        with rec.raises("returned nan values", name="log of negative"):
            q.log().backward()
    r = T.tensor([-1.0], requires_grad=True)
    r.log().backward()
    rec("mode off again", r.grad)


# --- odds and ends of the surface --------------------------------------------------

def case_cat_stack_where_clone(T, rec):
    a = T.tensor([[1.0, 2.0]], requires_grad=True)
    b = T.tensor([[3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    c = T.cat([a, b])
    rec("cat", c)
    rec("cat node", c.grad_fn.name())
    s = T.stack([a[0], b[1]], dim=1)
    rec("stack", s)
    rec("stack node", s.grad_fn.name())
    w = T.where(b > 4, b, a * 10)
    rec("where", w)
    rec("where node", w.grad_fn.name())
    cl = b.clone()
    rec("clone node", cl.grad_fn.name())
    rec("clone has its own storage", cl._version == 0 and cl is not b)
    (c * T.arange(6.0).view(3, 2)).sum().backward(retain_graph=True)
    rec("cat grads", (a.grad, b.grad))
    a.grad = b.grad = None
    (s.sum() + w.sum() * 10 + cl.sum() * 100).backward()
    rec("stack/where/clone grads", (a.grad, b.grad))


def case_python_protocols(T, rec):
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]])
    rec("len", len(x))
    rec("iterate rows", [row.tolist() for row in x])
    rec("iterate dtype", _n(next(iter(x)).dtype))
    rec("float of 0-d", float(x[1, 1]))
    rec("index with 0-d int tensor", x[T.tensor(1)])
    rec("range with tensor", list(range(T.tensor(3))))
    with rec.raises("len() of a 0-d tensor", name="len 0-d"):
        len(T.tensor(1.0))
    with rec.raises("iteration over a 0-d tensor", name="iter 0-d"):
        iter(T.tensor(1.0))
    with rec.raises("only integer tensors of a single element can be converted to an index",
                    name="float as index"):
        [1, 2, 3][T.tensor(1.0)]
    rec("in-place on a row while iterating", [r.add_(1).tolist() for r in x])
    rec("x after", x)
    rec("is_floating_point", (x.is_floating_point(), T.tensor([1]).is_floating_point()))
    rec("element_size", (x.element_size(), T.tensor([1]).element_size(),
                         T.tensor([1.0], dtype=T.float64).element_size()))


def case_saved_tensors_hooks_and_python_numbers(T, rec):
    log = []

    def pack(t):
        log.append(("pack", tuple(t.shape), t.tolist()))
        return t

    x = T.tensor([1.0, 2.0], requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        a = x * 2           # saves the number 2, but pack hooks never see numbers
        b = x / 4
        c = 3 * x
        d = x + 1
        e = x * T.tensor(2.0)
    rec("packed", log)
    (a + b + c + d + e).sum().backward()
    rec("x.grad", x.grad)
    y = x * 1
    for name, op in (("add_", lambda: y.add_(1)), ("mul_", lambda: y.mul_(2)),
                     ("sub_", lambda: y.sub_(1)), ("div_", lambda: y.div_(2))):
        op()
        rec(name + " edges", _edges(y.grad_fn))
    z = x * 1
    z += 1
    rec("+= edges", _edges(z.grad_fn))
    rec("tensor alpha edges", _edges(x.add(x, alpha=2).grad_fn))


# --- a second helping: interop, more errors, node objects ------------------------------

def case_numpy_interop(T, rec):
    import numpy as np
    a = np.array([1.0, 2.0])
    t = T.tensor(a)
    rec("tensor(float64 array) keeps float64", _n(t.dtype))
    a[0] = 100.0
    rec("tensor() copies", t)
    s = T.from_numpy(a)
    a[1] = -1.0
    rec("from_numpy shares memory", s)
    rec("from_numpy dtype", _n(s.dtype))
    rec("int32 array", _n(T.tensor(np.array([1, 2], dtype=np.int32)).dtype))
    rec("as_tensor of a tensor is itself", T.as_tensor(t) is t)
    rec("as_tensor of a list", T.as_tensor([1.0, 2.0]))
    rec("tensor of 0-d tensors", T.tensor([T.tensor(1.5), T.tensor(2.5)]))
    rec("np.float64 operand", T.tensor([1.0, 2.0]) * np.float64(3.0))
    rec("np.float64 operand dtype", _n((T.tensor([1.0, 2.0]) * np.float64(3.0)).dtype))
    with rec.raises("expected sequence of length 2 at dim 1 (got 1)", name="ragged list"):
        T.tensor([[1.0, 2.0], [3.0]])
    with rec.raises("expected sequence of length 1 at dim 2 (got 2)", name="ragged deeper"):
        T.tensor([[[1], [2]], [[3], [4, 5]]])
    with rec.raises("not a sequence", name="number where a list belongs"):
        T.tensor([[1, 2], 3])


def case_more_dtypes_repr(T, rec):
    shown = {
        "float16": T.tensor([1.5, 2.0], dtype=T.float16),
        "uint8": T.tensor([1, 255], dtype=T.uint8),
        "int8": T.tensor([-1, 5], dtype=T.int8),
        "int16": T.tensor([3], dtype=T.int16),
        "0.1 in float32": T.tensor([0.1, 0.2]),
        "negative fractions": T.tensor([-0.5, -1.25]),
        "large ints as floats": T.tensor([123456789.0, 1.0]),
        "empty int": T.tensor([], dtype=T.int64),
        "empty bool 2-d": T.zeros(2, 0, dtype=T.bool),
        "float64 0-dim with grad": T.tensor(2.5, dtype=T.float64, requires_grad=True),
        "3-d with grad_fn": T.arange(8.0).view(2, 2, 2).requires_grad_() * 1,
    }
    for name, t in shown.items():
        rec(name, _n(repr(t)))
        rec(name + " str", _n(str(t)))
    with T.no_grad():
        rec("inside no_grad", _n(repr(T.tensor([1.0], requires_grad=True) * 2)))


def case_node_objects(T, rec):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    seen = []

    class Probe(T.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            seen.append(isinstance(ctx, T.autograd.function.FunctionCtx))
            return t * 1

        @staticmethod
        def backward(ctx, g):
            return g

    z = Probe.apply(y)
    rec("ctx is a FunctionCtx", seen)
    rec("grad_fn is a Node", isinstance(y.grad_fn, T.autograd.graph.Node))
    acc = y.grad_fn.next_functions[0][0]
    rec("AccumulateGrad is a Node", isinstance(acc, T.autograd.graph.Node))
    rec("custom node is a Node", isinstance(z.grad_fn, T.autograd.graph.Node))
    rec("custom node name", z.grad_fn.name())
    rec("metadata starts empty", dict(y.grad_fn.metadata))
    y.grad_fn.metadata["note"] = "mine"
    rec("metadata is kept", y.grad_fn.metadata["note"])
    rec("same node object each time", y.grad_fn is y.grad_fn)
    calls = []
    acc.register_prehook(lambda grads: calls.append(("acc pre", grads[0].tolist())))
    z.grad_fn.register_prehook(lambda grads: calls.append(("custom pre", grads[0].tolist())))
    z.sum().backward()
    rec("calls", calls)
    rec("x.grad", x.grad)


def case_tensor_used_twice_hooks(T, rec):
    calls = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: calls.append(("y", g.tolist())))
    x.register_hook(lambda g: calls.append(("x", g.tolist())))
    out = (y * y + y * 3 + x).sum()
    out.backward()
    rec("each hook runs once with the summed gradient", calls)
    rec("x.grad", x.grad)
    calls.clear()
    a = T.tensor([1.0], requires_grad=True)
    b = a * 3
    b.register_hook(lambda g: calls.append(("b", g.requires_grad)) or g * 2)
    (g,) = T.autograd.grad((b * b).sum(), a, create_graph=True)
    rec("hook under create_graph", calls)
    rec("gradient through the hook", g)
    rec("still differentiable", g.requires_grad)
    (gg,) = T.autograd.grad(g.sum(), a)
    rec("second derivative through the hook", gg)


def case_more_errors(T, rec):
    with rec.raises("more than one element of the written-to tensor refers to a single "
                    "memory location", name="in-place on an expanded tensor"):
        T.ones(3).expand(2, 3).add_(1)
    with rec.raises("does not require grad", name="backward of an int result"):
        T.tensor([1, 2]).sum().backward()
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with rec.raises("Dimension out of range", name="unsqueeze out of range"):
        x.unsqueeze(3)
    with rec.raises("Dimension out of range", name="transpose out of range"):
        x.transpose(0, 2)
    with rec.raises("number of dimensions", name="permute wrong length"):
        T.ones(2, 3).permute(0)
    with rec.raises("at least 1D", name="matmul of a 0-d tensor"):
        T.tensor(2.0) @ T.ones(2)
    with rec.raises("Boolean value of Tensor with more than one value is ambiguous",
                    name="if tensor"):
        if x > 0:
            pass
    with rec.raises("only one element tensors can be converted to Python scalars",
                    name="float of a vector"):
        float(x)
    with rec.raises("only one element tensors can be converted to Python scalars",
                    name="int of an empty tensor"):
        int(T.ones(0))
    with rec.raises("grad can be implicitly created only for scalar outputs",
                    name="backward of a 2-element tensor"):
        (x * 2).backward()
    with rec.raises("shape '[3]' is invalid for input of size 2", name="reshape"):
        x.reshape(3)
    with rec.raises("clamp", name="clamp without bounds"):
        x.clamp()


def case_grad_of_max_min_and_masks(T, rec):
    x = T.tensor([[3.0, 1.0, 3.0], [0.0, 5.0, 5.0]], requires_grad=True)
    y = T.maximum(x, T.tensor([2.0, 1.0, 4.0]))
    z = T.minimum(x, T.tensor(3.0))
    w = x.max(T.ones(3))
    rec("maximum", y)
    rec("minimum", z)
    rec("max(tensor)", w)
    rec("nodes", (y.grad_fn.name(), z.grad_fn.name(), w.grad_fn.name()))
    (y.sum() + z.sum() * 10 + w.sum() * 100).backward()
    rec("x.grad (ties share)", x.grad)
    a = T.tensor([1.0, -1.0, 2.0], requires_grad=True)
    m = a.masked_fill(a < 0, 0.0)
    rec("masked_fill", m)
    rec("masked_fill node", m.grad_fn.name())
    m.sum().backward()
    rec("masked_fill grad", a.grad)
    b = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    sm = b.softmax(dim=1)
    ls = b.log_softmax(dim=0)
    rec("softmax", sm)
    rec("log_softmax", ls)
    rec("softmax nodes", (sm.grad_fn.name(), ls.grad_fn.name()))
    (sm * T.tensor([[1.0, 0.0], [0.0, 2.0]])).sum().backward(retain_graph=True)
    rec("softmax grad", b.grad)
    b.grad = None
    (ls * T.tensor([[1.0, 0.0], [0.0, 2.0]])).sum().backward()
    rec("log_softmax grad", b.grad)


def case_matmul_gradchecks(T, rec):
    def t(*shape):
        n = 1
        for s in shape:
            n *= s
        values = [((i * 7) % 11 - 5) / 4 for i in range(n)]
        return T.tensor(values, dtype=T.float64).view(*shape).requires_grad_()

    pairs = {
        "1-d @ 1-d": (t(3), t(3)),
        "2-d @ 1-d": (t(2, 3), t(3)),
        "1-d @ 2-d": (t(3), t(3, 2)),
        "3-d @ 2-d": (t(2, 2, 3), t(3, 2)),
        "3-d @ 3-d": (t(2, 2, 3), t(2, 3, 2)),
        "1-d @ 3-d": (t(3), t(2, 3, 2)),
        "3-d @ 1-d": (t(2, 2, 3), t(3)),
        "broadcast batch": (t(2, 1, 2, 3), t(3, 3, 2)),
    }
    for name, (a, b) in pairs.items():
        out = a @ b
        rec(name + " shape", tuple(out.shape))
        rec(name, out)
        rec(name + " gradcheck", T.autograd.gradcheck(T.matmul, (a, b)))
        rec(name + " gradgradcheck", T.autograd.gradgradcheck(
            T.matmul, (a, b), (T.ones_like(out),)))


def case_size_and_shape_queries(T, rec):
    x = T.zeros(2, 3, 4)
    rec("shape", tuple(x.shape))
    rec("shape[1]", x.shape[1])
    rec("size()", tuple(x.size()))
    rec("size(-1)", x.size(-1))
    rec("numel", x.numel())
    rec("Size.numel", x.shape.numel())
    rec("dim", x.dim())
    rec("ndim", x.ndim)
    rec("shape slicing", _n(repr(x.shape[1:])))
    rec("shape reversed", _n(repr(x.shape[::-1])))
    rec("shape + tuple", _n(repr(x.shape + (5,))))
    rec("tuple + shape", _n(repr((5,) + x.shape)))
    rec("shape == list", x.shape == [2, 3, 4])
    rec("unpack shape", [d for d in x.shape])
    rec(".T of 1-d is itself", tuple(T.ones(3).T.shape))
    rec("is_contiguous", (x.is_contiguous(), x.transpose(0, 1).is_contiguous()))
    rec("sum dtype arg", _n(T.tensor([1, 2]).sum(dtype=T.float32).dtype))
    rec("empty sum", T.zeros(0).sum())
    rec("empty mean is nan", T.zeros(0).mean())
    rec("arange negative step", T.arange(5, 0, -2))
    rec("zeros_like requires_grad", T.zeros_like(x, requires_grad=True).requires_grad)
    rec("full requires_grad", T.full((2,), 1.5, requires_grad=True))


def case_special_values(T, rec):
    x = T.tensor([0.0, -1.0, 100.0, -100.0], requires_grad=True)
    results = {
        "log": x.log(), "sqrt": x.sqrt(), "exp": x.exp(), "sigmoid": x.sigmoid(),
        "tanh": x.tanh(), "1 / x": 1 / x, "x / 0": x / 0, "abs": x.abs(),
    }
    for name, y in results.items():
        rec(name, y)
        x.grad = None
        y.sum().backward()
        rec(name + " grad", x.grad)
    rec("int / int zero", T.tensor([1, 0, -1]) / T.tensor([0, 0, 0]))
    rec("0 * inf", T.tensor([0.0]) * float("inf"))
    rec("nan comparisons", T.tensor([float("nan")]) == T.tensor([float("nan")]))
    rec("max with nan", T.tensor([1.0, float("nan"), 3.0]).max())


def case_augmented_assignment_on_slices(T, rec):
    x = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    y = x * 1
    y[1:3] += 10
    rec("y after y[1:3] += 10", y)
    rec("version", y._version)
    rec("node", y.grad_fn.name())
    y[0] *= 5
    rec("y after y[0] *= 5", y)
    rec("version after two", y._version)
    (y * T.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    rec("x.grad", x.grad)
    m = T.zeros(2, 3)
    m[:, 1] += 1
    m[1] -= 2
    m[0, 0] = 7
    rec("plain tensor", m)
    rec("plain tensor version", m._version)


def case_views_and_hooks(T, rec):
    calls = []
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    row = x[1]
    row.retain_grad()
    row.register_hook(lambda g: calls.append(("row", g.tolist())))
    col = x[:, 0]
    col.register_hook(lambda g: calls.append(("col", g.tolist())) or g * 100)
    (row * 2 + col * 3).sum().backward()
    rec("calls", sorted(calls))
    rec("row.grad", row.grad)
    rec("x.grad", x.grad)
    d = x.detach().requires_grad_()
    rec("detach then requires_grad_ is a new leaf", (d.is_leaf, d.requires_grad, d.grad_fn))
    (d * 2).sum().backward()
    rec("x.grad unchanged by d", x.grad)
    rec("d.grad", d.grad)
    c = x.clone()
    rec("clone of a leaf", (c.grad_fn.name(), c.is_leaf, c.requires_grad))


def case_second_order_through_indexing(T, rec):
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    y[0] = x[1] ** 2
    z = (y ** 2)[[0, 0, 2]].sum() + (x[1:] * x[:2]).sum()
    (g,) = T.autograd.grad(z, x, create_graph=True)
    rec("first", g)
    (h,) = T.autograd.grad(g.sum(), x)
    rec("second", h)
    w = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    q = (w[:, 1] * w[0]).sum() * w.T[1, 0]
    (gw,) = T.autograd.grad(q, w, create_graph=True)
    rec("first 2-d", gw)
    (hw,) = T.autograd.grad(gw[0].sum(), w)
    rec("second 2-d", hw)


def case_backward_api_forms(T, rec):
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0], requires_grad=True)
    y1 = a * 2
    y2 = (a * b).sum()
    T.autograd.backward([y1, y2], [T.tensor([1.0, 10.0]), None])
    rec("a.grad", a.grad)
    rec("b.grad", b.grad)
    T.autograd.backward((a * b).sum() * 0 + (b ** 2).sum(), retain_graph=False)
    rec("single tensor", b.grad)
    with rec.raises("got 2 tensors and 1 gradients", name="length mismatch"):
        T.autograd.backward([a * 3, a * 4], [T.ones(2)])
    with rec.raises("got 2 tensors and 1 gradients", name="grad length mismatch"):
        T.autograd.grad([a * 3, a * 4], [a], [T.ones(2)])


def case_custom_function_view_outputs_refuse_inplace(T, rec):
    class ViewOut(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view(-1)

        @staticmethod
        def backward(ctx, g):
            return g.view(2, 1)

    class Identity(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = T.tensor([[1.0], [2.0]], requires_grad=True)
    y = x * 1
    v = ViewOut.apply(y)
    with rec.raises("Output 0 of ViewOut is a view and is being modified inplace",
                    "custom Function", name="view made inside forward"):
        v.add_(1)
    i = Identity.apply(y)
    with rec.raises("Output 0 of Identity is a view and is being modified inplace",
                    name="input returned as-is"):
        i.mul_(2)
    with rec.raises("is a view and is being modified inplace", name="leaf returned as-is"):
        Identity.apply(x).mul_(2)
    c = Identity.apply(y).clone()
    c.add_(1)
    rec("a clone may be modified", c)


def case_no_warnings_from_floating_point_edge_cases(T, rec):
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = T.tensor([0.0, -1.0, 100.0, float("inf")], requires_grad=True)
        outs = [x.exp(), x.log(), x.sqrt(), x * 0, x - x, x / x, x ** 0.5, x.sin(), x.cos(),
                x.tanh(), x.sigmoid(), 2 ** x, x.abs() ** x, (x * 1e30) * 1e30]
        for y in outs:
            y.sum().backward()
        T.zeros(0).mean()
        T.zeros(0, 3).mean(0)
        T.tensor([float("inf")]) + T.tensor([-float("inf")])
    rec("warnings", [str(w.category.__name__) + ": " + str(w.message) for w in caught])
    rec("x.grad", x.grad)


def case_printed_nodes(T, rec):
    import re

    def shown(value):
        return re.sub(r"0x[0-9a-f]+", "0x...", _n(repr(value)))

    class Exp(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.exp()

        @staticmethod
        def backward(ctx, g):
            return g

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    rec("built-in node", shown(y.grad_fn))
    rec("next_functions", shown(y.grad_fn.next_functions))
    rec("custom node", shown(Exp.apply(x).grad_fn))
    rec("custom tensor", _n(repr(Exp.apply(x))))
    z = x * 1
    z[0] = 3.0
    rec("CopySlices node", shown(z.grad_fn))
    rec("sum node", shown(y.sum().grad_fn))
    rec("str of a node", shown(str(y.grad_fn)))
    rec("dtype str", (_n(str(T.float32)), _n(str(T.int64))))
    rec("device str", (str(T.device("cpu")), repr(T.device("cpu"))))


def case_error_messages_of_ops(T, rec):
    checks = [
        ("copy_ from a shape that does not broadcast",
         ("must match the size of tensor b (2)",), lambda: T.ones(3).copy_(T.ones(2))),
        ("expand to fewer dims", ("the number of sizes provided (1) must be greater or equal "
                                  "to the number of dimensions in the tensor (2)",),
         lambda: T.ones(2, 3).expand(3)),
        ("float index", ("only integers, slices",), lambda: T.ones(2)[1.5]),
        ("float tensor index", ("tensors used as indices must be long, int, byte or bool",),
         lambda: T.ones(3)[T.tensor([0.0, 1.0])]),
        ("mask of a wrong shape", ("shape of the mask [3] at index 0 does not match",),
         lambda: T.ones(2)[T.tensor([True, False, True])]),
        ("slice step 0", ("slice step cannot be zero",), lambda: T.ones(3)[::0]),
        ("negative slice step", ("step must be greater than zero",), lambda: T.ones(3)[::-1]),
        ("mm of a vector", ("self must be a matrix",), lambda: T.ones(3).mm(T.ones(3, 1))),
        ("mm by a vector", ("mat2 must be a matrix",), lambda: T.ones(1, 3).mm(T.ones(3))),
        ("dot of a matrix", ("1D tensors expected, but got 2D and 1D tensors",),
         lambda: T.ones(2, 2).dot(T.ones(2))),
        ("tensor(None)", ("Could not infer dtype of NoneType",), lambda: T.tensor(None)),
        ("tensor('abc')", ("invalid data type 'str'",), lambda: T.tensor("abc")),
        ("negative size", ("negative dimension -1",), lambda: T.ones(-1)),
        ("arange step 0", ("step must be nonzero",), lambda: T.arange(0, 5, 0)),
        ("arange backwards", ("upper bound and lower bound inconsistent with step sign",),
         lambda: T.arange(5, 0)),
        ("int to a negative power", ("Integers to negative integer powers are not allowed",),
         lambda: T.tensor([2]) ** -1),
        ("bool of an empty tensor", ("Boolean value of Tensor with no values is ambiguous",),
         lambda: bool(T.ones(0))),
        ("permute with a repeated dim", ("duplicate dims are not allowed",),
         lambda: T.ones(2, 3).permute(0, 0)),
        ("stack of different shapes", ("stack expects each tensor to be equal size",),
         lambda: T.stack([T.ones(2), T.ones(3)])),
        ("cat of nothing", ("expected a non-empty list of Tensors",), lambda: T.cat([])),
        ("where with an int condition", ("where expected condition to be a boolean tensor",),
         lambda: T.where(T.tensor([1, 0]), T.ones(2), T.zeros(2))),
    ]
    for name, phrases, make in checks:
        with rec.raises(*phrases, name=name):
            make()
    rec("fill_ of an int tensor with a float truncates", T.tensor([1]).fill_(2.5))
    rec("a 0-d tensor can be viewed as [1]", T.tensor(1.0).view(1))
    rec("clamp with min > max gives max", T.tensor([1.0, 5.0]).clamp(3, 2))
    rec("transpose of a dim with itself", tuple(T.ones(2, 3).transpose(1, 1).shape))


# --- found by tests/test_random_programs.py ------------------------------------------

def case_matmul_mixed_dtype_messages(T, rec):
    pairs = [((2, 3), (3,)), ((3,), (3, 2)), ((2, 3), (3, 2)), ((3,), (3,))]
    for sa, sb in pairs:
        for da, db in ((T.float64, T.float32), (T.float32, T.int64)):
            with rec.raises(name=f"{sa} @ {sb} {_n(da)} {_n(db)}"):
                T.ones(*sa, dtype=da) @ T.ones(*sb, dtype=db)
            try:
                T.ones(*sa, dtype=da) @ T.ones(*sb, dtype=db)
            except RuntimeError as error:
                rec(f"{sa} @ {sb} {_n(da)} {_n(db)} message", str(error))


def case_div_second_order_node_names(T, rec):
    a = T.tensor([0.5, 2.0], requires_grad=True)
    b = T.tensor([1.5, 3.0], requires_grad=True)
    c = T.tensor(0.125, requires_grad=True)
    ga, gb = T.autograd.grad((a / b).sum(), [a, b], create_graph=True)
    (gc,) = T.autograd.grad((0.125 / c).sum(), [c], create_graph=True)
    for name, g in (("d/da", ga), ("d/db", gb), ("d/dc of 1/c", gc)):
        rec(name, g)
        rec(name + " node", g.grad_fn.name())
        rec(name + " next", _edges(g.grad_fn))
    (gb * gb).sum().backward()
    rec("second order a", a.grad)
    rec("second order b", b.grad)


def case_inplace_error_order_and_shapes(T, rec):
    checks = {
        "int add_ of a float that does not fit its shape":
            lambda: T.zeros(2, 1, dtype=T.int64).add_(T.ones(2, 3)),
        "add_ of a shape that does not broadcast": lambda: T.zeros(2, 3).add_(T.ones(4, 3)),
        "sub_ of a shape that does not broadcast": lambda: T.zeros(2, 3).sub_(T.ones(4, 3)),
        "mul_ of a shape that does not broadcast": lambda: T.zeros(2, 3).mul_(T.ones(4, 3)),
        "div_ of a shape that does not broadcast": lambda: T.zeros(2, 3).div_(T.ones(4, 3)),
        "mul_ of an expanded int tensor by a float":
            lambda: T.zeros(2, 1, dtype=T.int64).expand(2, 3).mul_(1.5),
        "copy_ into an expanded tensor": lambda: T.zeros(2, 1).expand(2, 3).copy_(T.ones(3)),
    }
    for name, make in checks.items():
        with rec.raises(name=name):
            make()
        try:
            make()
        except RuntimeError as error:
            rec(name + " message", str(error))


def case_setitem_on_a_leaf_names_the_view(T, rec):
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    keys = {"0": 0, "...": ..., ":": slice(None), "0:2": slice(0, 2), "0:5": slice(0, 5),
            ":, :": (slice(None), slice(None)), "..., :": (Ellipsis, slice(None)),
            "0:1": slice(0, 1), "-2:": slice(-2, None), "0, 1": (0, 1), "None": None,
            "int tensor": T.tensor([0])}
    for name, key in keys.items():
        with rec.raises(name=name):
            x[key] = 2.0
        try:
            x[key] = 2.0
        except RuntimeError as error:
            rec(name + " message", str(error).split(" minigrad hint")[0])
    with T.no_grad():
        x[0] = 5.0
    rec("under no_grad", x)


def case_flatten_of_nothing_to_merge_is_self(T, rec):
    shapes_args = [((), ()), ((3,), ()), ((2, 3), (1,)), ((2, 3), ()), ((2, 3), (0, 0)),
                   ((2, 1, 3), (1, -1)), ((2, 3), (-1,))]
    for shape, args in shapes_args:
        x = T.ones(shape, requires_grad=True)
        y = x.flatten(*args)
        rec(f"{shape} flatten{args}", (y is x, tuple(y.shape), y.is_leaf,
                                       None if y.grad_fn is None else y.grad_fn.name()))


def case_bool_subtraction_and_negation_are_refused(T, rec):
    b = T.tensor([True, False])
    f = T.ones(2)
    checks = {
        "bool - bool": lambda: b - b,
        "-bool": lambda: -b,
        "bool.neg()": lambda: b.neg(),
        "bool - True": lambda: b - True,
        "bool.sub_(bool)": lambda: b.sub_(b),
        "float.sub_(bool)": lambda: f.clone().sub_(b),
        "bool.sub_(float)": lambda: b.clone().sub_(f),
        "float.sub_(True)": lambda: f.clone().sub_(True),
        "float - True": lambda: f - True,
        "float.sub(bool)": lambda: f.sub(b),
        "True - float": lambda: True - f,
        "bool - 1": lambda: b - 1,
        "1 - bool": lambda: 1 - b,
    }
    for name, make in checks.items():
        with rec.raises(name=name):
            make()
        try:
            make()
        except RuntimeError as error:
            rec(name + " message", str(error))
    rec("add_ of a bool with alpha=-1 is allowed", f.clone().add_(b, alpha=-1))


def case_softmax_second_order(T, rec):
    for op in ("softmax", "log_softmax"):
        x = T.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
        w = T.tensor([[1.0, 2.0, -1.0], [0.5, -2.0, 3.0]], requires_grad=True)
        y = getattr(x, op)(1)
        (g,) = T.autograd.grad((y * w).sum(), [x], create_graph=True)
        rec(op + " grad", g)
        rec(op + " grad node", g.grad_fn.name())
        rec(op + " grad edges", _edges(g.grad_fn))
        (g * g * T.tensor([1.0, 2.0, 3.0])).sum().backward()
        rec(op + " second order x", x.grad)
        rec(op + " second order w", w.grad)


def case_squeeze_backward_unsqueezes_only_removed_dims(T, rec):
    for shape, args in [((3, 3), ()), ((3, 3), (0,)), ((2, 1, 3), ()), ((2, 1, 3), (1,)),
                        ((1, 2, 1), ()), ((1,), ()), ((), ()), ((2, 1, 3), (-1,))]:
        x = T.ones(shape, requires_grad=True)
        y = x.squeeze(*args)
        (g,) = T.autograd.grad((y.sin() * 2).sum(), [x], create_graph=True)
        rec(f"{shape} squeeze{args}", (tuple(y.shape), y.grad_fn.name(), g.grad_fn.name()))
        rec(f"{shape} squeeze{args} grad", g)


def case_setitem_casts_values_index_put_does_not(T, rec):
    def run(name, x, key, value):
        with rec.raises(name=name):
            x[key] = value
        rec(name + " result", x)
        rec(name + " dtype", _n(x.dtype))
    run("bool[0] = 2", T.tensor([False, False]), 0, 2)
    run("int[0] = 2.7", T.tensor([1, 2]), 0, 2.7)
    run("int[0] = -2.7", T.tensor([1, 2]), 0, -2.7)
    run("int[...] = 2.7", T.tensor([1, 2]), ..., 2.7)
    run("int[0] = float tensor", T.tensor([1, 2]), 0, T.tensor(2.7))
    run("int[idx] = 2.7", T.tensor([1, 2]), T.tensor([0]), 2.7)
    run("int[idx] = float tensor", T.tensor([1, 2]), T.tensor([0]), T.tensor([2.7]))
    run("float[idx] = double tensor", T.tensor([1.0, 2.0]), T.tensor([0]),
        T.tensor([2.0], dtype=T.float64))
    try:
        T.tensor([1, 2])[T.tensor([0])] = T.tensor([2.7])
    except RuntimeError as error:
        rec("index put message", str(error))
    x = T.tensor([1.0, 2.0], requires_grad=True)
    v = T.tensor(3.0, dtype=T.float64, requires_grad=True)
    y = x * 1
    y[0] = v
    y.sum().backward()
    rec("float32[0] = float64 value grad", v.grad)
    rec("float32[0] = float64 value grad dtype", _n(v.grad.dtype))
    rec("x grad", x.grad)


def case_matmul_of_bool_and_int_tensors(T, rec):
    for sa, sb in [((2, 3), (3, 2)), ((2, 3), (3,)), ((3,), (3, 2)), ((3,), (3,))]:
        for dtype in (T.bool, T.int64):
            name = f"{sa} @ {sb} {_n(dtype)}"
            with rec.raises(name=name):
                result = T.ones(sa, dtype=dtype) @ T.ones(sb, dtype=dtype)
                rec(name + " result", result)
                rec(name + " dtype", _n(result.dtype))
            try:
                T.ones(sa, dtype=dtype) @ T.ones(sb, dtype=dtype)
            except NotImplementedError as error:
                rec(name + " message", str(error))


def case_integers_to_negative_tensor_powers(T, rec):
    e = T.tensor([-2, -1, 0, 1, 2])
    for base in (2, -1, 1, 0, 3, -2):
        rec(f"{base} ** int tensor", base ** e)
    rec("int tensor ** int tensor", T.tensor([2, -1, 1, 0, 3]) ** e)
    rec("int tensor ** 0-d negative int tensor", T.tensor([2, -1]) ** T.tensor(-1))
    rec("2.0 ** int tensor", 2.0 ** e)
    with rec.raises("Integers to negative integer powers are not allowed"):
        T.tensor([2]) ** -1


def case_cat_and_stack_promote_dtypes(T, rec):
    i = T.tensor([1, 2])
    b = T.tensor([True, False])
    f = T.tensor([0.5, 1.5], requires_grad=True)
    d = T.tensor([2.5, -1.0], dtype=T.float64, requires_grad=True)
    results = {
        "cat int float": T.cat([i, f]),
        "cat float double": T.cat([f, d]),
        "cat bool int": T.cat([b, i]),
        "stack int float": T.stack([i, f]),
        "stack double float": T.stack([d, f], 1),
        "stack 0-d": T.stack([T.tensor(1), T.tensor(2.5, dtype=T.float64)]),
    }
    for name, r in results.items():
        rec(name, r)
        rec(name + " dtype", _n(r.dtype))
    (results["cat float double"] * 2).sum().backward(retain_graph=True)
    (results["stack double float"] * 3).sum().backward()
    rec("f grad", (f.grad, _n(f.grad.dtype)))
    rec("d grad", (d.grad, _n(d.grad.dtype)))


def case_div_inplace_second_order_node_name(T, rec):
    x = T.tensor([1.5, -2.0], requires_grad=True)
    y = T.tensor([0.5, 4.0], requires_grad=True)
    z = x * 2
    z.div_(y)
    (g,) = T.autograd.grad(z.sum(), [y], create_graph=True)
    rec("d/dy", g)
    rec("d/dy node", g.grad_fn.name())
    (g * g).sum().backward()
    rec("x grad", x.grad)
    rec("y grad", y.grad)


def case_div_inplace_result_may_change_later(T, rec):
    y = T.tensor([0.5, 4.0], requires_grad=True)
    z = T.tensor([1.5, -2.0])
    z.div_(y)
    z.add_(2)
    rec("z", z)
    rec("z node", z.grad_fn.name())
    z.sum().backward()
    rec("y grad", y.grad)


def case_expand_that_repeats_nothing_is_writable(T, rec):
    x = T.zeros(2, 3, dtype=T.int64)
    y = x.expand(2, -1)
    y.add_(2)
    rec("same-shape expand add_", (y, x, y._version))
    z = T.zeros(3).expand(1, 1, 3)
    z.fill_(1.5)
    rec("expand adding size-1 dims fill_", z)
    with rec.raises("more than one element of the written-to tensor refers to a single memory"):
        T.zeros(1, 3).expand(2, 3).add_(1)


def case_version_error_names_the_op_with_its_overload_number(T, rec):
    makers = {
        "pow tensor": lambda y: y.pow(T.tensor([2.0, 1.0])),
        "sum dim": lambda y: y.sum(0, keepdim=True),
        "2 ** y": lambda y: 2 ** y,
        "clamp min": lambda y: y.clamp(min=0.1),
        "exp": lambda y: y.exp(),
    }
    for name, make in makers.items():
        x = T.tensor([0.5, 2.0], requires_grad=True)
        z = make(x * 1)
        out = z.sin()
        with T.no_grad():
            z.add_(1)
        try:
            out.sum().backward()
        except RuntimeError as error:
            rec(name, str(error).split(" instead")[0])


def case_matmul_results_versions(T, rec):
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0, 4.0])
    m = T.tensor([[1.0, 2.0], [3.0, 4.0]])
    for name, r in {"1-d @ 1-d": a @ b, "2-d @ 1-d": m @ a, "1-d @ 2-d": a @ m,
                    "2-d @ 2-d": m @ m, "1-d @ 2-d no grad": b @ m}.items():
        rec(name, (r, r._version, None if r.grad_fn is None else r.grad_fn.name()))


def case_view_of_a_0d_tensor_changed_in_place(T, rec):
    x = T.tensor(0.125, requires_grad=True)
    s = x * 2
    v = s.reshape(1)
    w = s.view(1, 1)
    s.add_(2)
    rec("v", (v, v.grad_fn.name(), v._version))
    rec("w", (w, w.grad_fn.name()))
    v.mul_(3)
    rec("s after v.mul_", (s, s.grad_fn.name(), s._version))
    (s + w.sum()).backward()
    rec("x grad", x.grad)


def case_integer_array_index_result_is_contiguous(T, rec):
    x = T.tensor([[1.0], [2.0]], requires_grad=True)
    for name, key in {"x[:, idx]": (slice(None), T.tensor([0, 0])),
                      "x[idx]": (T.tensor([0, 1]),),
                      "x[idx, idx]": (T.tensor([0, 1]), T.tensor([0, 0]))}.items():
        y = x[key]
        rec(name, (y, y.is_contiguous(), y.grad_fn.name()))
        for shape in [(-1,), (1, -1)]:
            z = y.reshape(shape)
            rec(f"{name}.reshape{shape}", (z, z.grad_fn.name()))


def case_number_to_a_tensor_power_saves_the_exponent(T, rec):
    x = T.tensor([0.5, 1.5], requires_grad=True)
    e = x.sin()
    y = 2 ** e
    e.add_(2)
    with rec.raises("modified by an inplace operation", name="backward"):
        y.sum().backward()
    rec("x grad", x.grad)


def case_select_and_alias_second_order_nodes(T, rec):
    x = T.tensor([[0.5, 1.0, 2.0], [1.5, -1.0, 0.25]], requires_grad=True)
    for name, pick in {"x[0]": lambda t: t[0], "x[0, 1:]": lambda t: t[0, 1:],
                       "x[:, 1]": lambda t: t[:, 1], "x[...]": lambda t: t[...],
                       "x[1:]": lambda t: t[1:]}.items():
        y = pick(x)
        (g,) = T.autograd.grad(y.sin().sum(), [x], create_graph=True)
        rec(name, (g, y.grad_fn.name(), g.grad_fn.name()))
        (g2,) = T.autograd.grad((g * g).sum(), [x], create_graph=True)
        rec(name + " second", g2)


def case_masked_fill_broadcasts_self_against_the_mask(T, rec):
    a = T.tensor(0.5, requires_grad=True)
    b = T.tensor([[1.0], [2.0]], requires_grad=True)
    mask = T.tensor([True, False, True])
    for name, x in (("0-d", a), ("column", b)):
        y = x.masked_fill(mask, 3.0)
        rec(name, (y, y.grad_fn.name()))
        (g,) = T.autograd.grad((y * T.tensor([1.0, 2.0, 3.0])).sum(), [x])
        rec(name + " grad", g)
    rec("int masked_fill with a float", T.tensor([1, 2, 3]).masked_fill(mask, 2.7))
    base = T.tensor([0.0, 1.0], requires_grad=True)
    e = T.tensor([0.5, 2.0], requires_grad=True)
    (ge,) = T.autograd.grad((T.tensor(0.0) + base.sum() * 0 + 2.0) ** e, [e],
                            grad_outputs=T.ones(2))
    rec("0-d base ** 1-d exponent grad", ge)


def case_index_second_order_node_name(T, rec):
    x = T.tensor([[0.5, 1.0], [2.0, -1.0]], requires_grad=True)
    y = x[T.tensor([0, 0, 1])]
    (g,) = T.autograd.grad(y.sin().sum(), [x], create_graph=True)
    rec("grad", (g, g.grad_fn.name()))
    (g * g).sum().backward()
    rec("second order", x.grad)


def case_cat_of_transposed_views_is_contiguous(T, rec):
    x = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    t = x.T
    c = T.cat([t, t], dim=0)
    s = T.stack([t, t])
    rec("contiguous", (c.is_contiguous(), s.is_contiguous()))
    v = c.unsqueeze(0)
    c.add_(2)
    rec("view after base add_", (v, v.grad_fn.name(), v._version))
    (v.sum() + s.sum()).backward()
    rec("x grad", x.grad)


def case_clamp_backward_is_a_where(T, rec):
    x = T.tensor([[0.125, -3.0], [1.0, 4.0]], dtype=T.float64, requires_grad=True)
    for name, y in [("min", x.clamp(min=-2.5)), ("max", x.clamp(max=2.0)),
                    ("both", x.clamp(-2.5, 2.0)), ("in-place", (x * 1).clamp_(min=0.5))]:
        (g,) = T.autograd.grad((2 / y).sum(), [x], create_graph=True)
        rec(name, (g, g.grad_fn.name()))
        (g2,) = T.autograd.grad((g * g).sum(), [x])
        rec(name + " second order", g2)


def case_reshape_node_depends_on_contiguity(T, rec):
    x = T.ones(3, 3, requires_grad=True)
    e = x.expand(2, 3, 3)
    t = x.t()
    s = T.ones(4, 3, requires_grad=True)[:, :2]
    for name, y in [("contiguous", x.reshape(9)), ("flatten contiguous", x.flatten()),
                    ("expanded flatten", e.flatten(1)), ("expanded reshape", e.reshape(2, 9)),
                    ("transposed reshape", t.reshape(9)),
                    ("unsqueezed transposed", t.unsqueeze(0).flatten(0, 1)),
                    ("sliced reshape", s.reshape(2, 2, 2)),
                    ("sliced unsqueeze", s.unsqueeze(1).reshape(4, 2))]:
        rec(name, (y.grad_fn.name(), tuple(y.shape)))
        y.sum().backward()
    rec("grads", (x.grad, s.grad if s.is_leaf else None))


def case_copy_backward_casts_then_sums(T, rec):
    base = T.tensor([[[0.5, 1.0, 2.0]] * 2] * 2, dtype=T.float64, requires_grad=True)
    src = T.tensor([0.25, -1.0, 3.0], dtype=T.float32, requires_grad=True)
    dst = base.sin()
    dst.copy_(src)
    (g_src, g_base) = T.autograd.grad(dst.sin().sum(), [src, base], create_graph=True)
    rec("grad of src", (g_src, g_src.grad_fn.name(), g_src.dtype))
    rec("grad of base", (g_base, g_base.grad_fn))
    (g_src * g_src).sum().backward()
    rec("second order", src.grad)


def case_max_backward_is_a_masked_fill(T, rec):
    x = T.tensor([[1.0, 3.0], [3.0, -2.0]], dtype=T.float64, requires_grad=True)
    for name, y in [("max", x.max()), ("min", x.min()), ("amax", (x * 2).max())]:
        (g,) = T.autograd.grad(y * y, [x], create_graph=True)
        rec(name, (g, g.grad_fn.name(), [type(n).__name__ if n is None else n.name()
                                          for n, _ in g.grad_fn.next_functions]))
        (g2,) = T.autograd.grad((g * g).sum(), [x])
        rec(name + " second order", g2)
    nan = T.tensor([1.0, float("nan"), 2.0], requires_grad=True)
    nan.max().backward()
    rec("nan max grad", nan.grad)
    v = T.tensor(5.0, requires_grad=True)
    out = T.zeros(3).masked_fill(T.tensor([True, False, True]), v * 2)
    rec("masked_fill with a tensor value", (out, out.grad_fn.name()))
    out.sum().backward()
    rec("value grad", v.grad)
    with rec.raises("masked_fill_ only supports a 0-dimensional value tensor"):
        T.zeros(3).masked_fill(T.tensor([True, False, True]), T.ones(3))


def case_masks_and_conditions_have_no_edge(T, rec):
    x = T.tensor([1.0, -2.0, 3.0], requires_grad=True)
    m = x > 0
    for name, y in [("where", T.where(m, x, x * 2)), ("masked_fill", x.masked_fill(m, 0.0)),
                    ("masked_fill tensor value", x.masked_fill(m, x.sum())),
                    ("masked_fill_", (x * 1).masked_fill_(m, 0.0))]:
        rec(name, [None if n is None else n.name() for n, _ in y.grad_fn.next_functions])
        (g,) = T.autograd.grad(y.sum(), [x])
        rec(name + " grad", g)


# --- found by tests/test_random_programs.py's generator for the newer ops -----------------

def case_prob_cross_entropy_records_pytorchs_nodes(T, rec):
    x = T.tensor([[2.0, 0.5, -1.0], [0.25, 1.0, 1.5]], dtype=T.float64, requires_grad=True)
    target = T.tensor([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]], dtype=T.float64)
    for reduction in ("mean", "sum", "none"):
        loss = T.nn.functional.cross_entropy(x, target, reduction=reduction)
        rec(reduction, (loss, loss.grad_fn.name()))
        (g,) = T.autograd.grad(loss.sum(), [x])
        rec(reduction + " grad", g)


def case_loss_dtypes_follow_pytorch(T, rec):
    x32 = T.tensor([0.5, -1.0], requires_grad=True)
    y64 = T.tensor([0.25, 1.0], dtype=T.float64, requires_grad=True)
    F = T.nn.functional
    for name, loss in [("bce f32 input", F.binary_cross_entropy_with_logits(x32, y64)),
                       ("bce f64 input", F.binary_cross_entropy_with_logits(y64, x32.detach())),
                       ("mse f32 input", F.mse_loss(x32, y64)),
                       ("mse f64 input", F.mse_loss(y64, x32))]:
        rec(name, (loss, loss.dtype))


def case_double_backward_nodes_of_newer_ops(T, rec):
    """The first grad's grad_fn (create_graph=True) follows PyTorch's formula order."""
    x = T.tensor([[1.0, -2.0, 0.5], [0.75, 1.5, -1.25]], dtype=T.float64, requires_grad=True)
    F = T.nn.functional
    for name, y in [("norm", x.norm()), ("norm dim", x.norm(dim=1)), ("std", x.std(1)),
                    ("var", x.var()), ("amin", (x * x).amin()),
                    ("amax dim", (x * x).amax(0)),
                    ("prod", x.prod()), ("prod dim", x.prod(1)),
                    ("bce mean", F.binary_cross_entropy_with_logits(x, T.full_like(x, 0.25))),
                    ("bce sum", F.binary_cross_entropy_with_logits(x, x.sigmoid(),
                                                                   reduction="sum")),
                    ("divide by a 0-d", (x / x[0, 0]).sum())]:
        (g,) = T.autograd.grad(y.sum(), [x], create_graph=True)
        rec(name, (g, None if g.grad_fn is None else g.grad_fn.name()))
        if g.requires_grad:
            (g2,) = T.autograd.grad((g * g).sum(), [x])
            rec(name + " second order", g2)
    z = T.tensor([0.5, 0.0, 2.0], dtype=T.float64, requires_grad=True)
    for name, y in [("prod with a zero", z.prod()), ("prod dim with a zero", z.prod(0))]:
        (g,) = T.autograd.grad(y, [z], create_graph=True)
        rec(name, (g, g.grad_fn.name()))


def case_zero_grads_have_no_history(T, rec):
    """fill_, zero_, floor, ceil, round, trunc, sign, x ** 0: zeros_like(grad), no graph."""
    x = T.tensor([0.5, -1.25, 2.0], dtype=T.float64, requires_grad=True)
    for name, step in [("fill_", lambda t: t.fill_(1.5)), ("zero_", lambda t: t.zero_()),
                       ("floor", T.floor), ("ceil", T.ceil), ("round", T.round),
                       ("trunc", T.trunc), ("sign", T.sign), ("pow 0", lambda t: t ** 0)]:
        y = step(x * 2).softmax(0)      # softmax: the incoming grad has history
        (g,) = T.autograd.grad(y[0], [x], create_graph=True)
        rec(name, (g, g.requires_grad, g.grad_fn))


def case_clamp_with_tensor_bounds(T, rec):
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    low = T.tensor([[1.5], [2.5]], dtype=T.float64, requires_grad=True)
    for name, y in [("min", x.clamp(min=low)), ("max", T.clamp(x, max=low)),
                    ("both", x.clamp(low, low + 1))]:
        rec(name, (y, y.grad_fn.name()))
        gs = T.autograd.grad((y * y).sum(), [x, low])
        rec(name + " grads", gs)


def case_var_output_may_change_in_place(T, rec):
    x = T.tensor([[1.0, 2.0, 4.0]], dtype=T.float64, requires_grad=True)
    v = x.var(1)
    v.add_(1)
    v.sum().backward()
    rec("grad", x.grad)


def case_gather_saves_its_input(T, rec):
    """gather keeps its input for backward: changing it in place is caught, and the message
    names the node that now owns it (CopySlices)."""
    x = T.tensor([1.625, 1.375], dtype=T.float64, requires_grad=True)
    y = x.log_softmax(0)
    part = y.narrow(0, 1, 1)
    picked = y.gather(0, T.tensor([0]))
    part.zero_()
    with rec.raises("which is output 0 of torch::autograd::CopySlices, is at version 1"):
        (picked.sum() + part.sum()).backward()


def case_hook_on_unused_split_output_sees_none(T, rec):
    order = []
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    a, b = x.chunk(2)
    a.register_hook(lambda g: order.append(("a", g)))
    b.sum().backward()
    rec("hooks", order)
    rec("grad", x.grad)


def case_flip_of_one_element_is_a_copy(T, rec):
    x = T.tensor([0.625, 2.0], dtype=T.float64, requires_grad=True)
    picked = x.index_select(0, T.tensor([0]))
    flipped = picked.flip([0])
    flipped.mul_(-2)
    rec("picked", picked)
    rec("flipped", (flipped, flipped._version, picked._version))


def case_repeat_backward_records_pytorchs_nodes(T, rec):
    x = T.tensor([[0.875, -1.5, 0.5]], dtype=T.float64, requires_grad=True)
    for repeats in [(2, 1), (1, 1), (2, 1, 1), (3, 2, 2), (1, 1, 1), (2, 0)]:
        y = x.repeat(*repeats)
        (g,) = T.autograd.grad((y * y).sum(), [x], create_graph=True)
        rec(str(repeats), (g, None if g.grad_fn is None else g.grad_fn.name()))


def case_softmax_of_a_transpose_is_contiguous(T, rec):
    x = T.tensor([[[0.5, 1.0, -1.0], [2.0, 0.25, 0.0]]], dtype=T.float64, requires_grad=True)
    x = x.expand(2, 2, 3).transpose(0, 1)
    for name, y in [("softmax", x.softmax(0)), ("log_softmax", x.log_softmax(2))]:
        flat = y.reshape(12)
        rec(name, (y.is_contiguous(), flat.grad_fn.name(), flat._base is y))


def case_max_along_a_dim_backward_is_a_scatter(T, rec):
    x = T.tensor([[[-1.125, 0.875, 0.5]], [[0.25, 0.25, 0.875]]], requires_grad=True)
    for keepdim in (False, True):
        values = x.max(0, keepdim=keepdim).values
        (g,) = T.autograd.grad(values.exp().sum(), [x], create_graph=True)
        rec(f"keepdim={keepdim}", (g, g.grad_fn.name()))
        (g2,) = T.autograd.grad((g * g).sum(), [x])
        rec(f"keepdim={keepdim} second order", g2)


def case_asin_acos_backward_ends_in_a_mul(T, rec):
    x = T.tensor([0.625, -0.25], dtype=T.float64, requires_grad=True)
    for name, y in [("asin", x.asin()), ("acos", x.acos())]:
        (g,) = T.autograd.grad((y * y).sum(), [x], create_graph=True)
        rec(name, (g, g.grad_fn.name()))
        (g2,) = T.autograd.grad(g.sum(), [x])
        rec(name + " second order", g2)


def case_inplace_through_a_view_of_a_transposed_result(T, rec):
    t2 = T.tensor([[0.125, 0.5, 1.0], [2.0, 3.0, 4.0]], requires_grad=True)
    t5 = -t2.swapaxes(0, 1)                  # keeps the transposed layout
    t6 = t5.swapaxes(0, 0)
    row = t5[1]
    t5.add_(2)
    rec("names", (t6.grad_fn.name(), row.grad_fn.name(), t5.is_contiguous()))
    row.mul_(3)
    rec("values", (t5, t6))
    (t6.sum() + row.sum()).backward()
    rec("grad", t2.grad)


def case_hook_on_a_view_before_an_inplace_change_does_not_fire(T, rec):
    order = []
    t1 = T.tensor([[0.125, 0.5, 1.0], [2.0, 3.0, -1.0]], requires_grad=True)
    t3 = -t1
    t4 = t3.reshape(6)
    t4.register_hook(lambda g: order.append(g))
    t4.add_(2)
    t3.sum().backward()
    rec("hooks", order)
    rec("grad", t1.grad)


def case_retain_grad_on_a_view_follows_an_inplace_change_of_its_base(T, rec):
    t1 = T.tensor([[0.125, 0.5, 1.0], [2.0, 3.0, -1.125]], requires_grad=True)
    t3 = -t1
    t4 = t3.reshape(6)
    t4.retain_grad()
    t3.add_(2)
    loss = t1.sum() + t4.sum() * 2
    loss.backward()
    rec("retained", (t4.grad, t4.grad_fn.name(), t4.retains_grad))
    rec("leaf", t1.grad)


# --- the newer tensor API: in-place comparisons, argsort, count_nonzero ----------------------

def case_inplace_comparisons(T, rec):
    b = T.tensor([1.0, 3.0, 2.0])
    for name in ("eq_", "ne_", "lt_", "le_", "gt_", "ge_"):
        for kind, other in (("tensor", b), ("number", 2.0), ("0-d tensor", T.tensor(2))):
            a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
            y = a * 1
            out = getattr(y, name)(other)
            rec(f"{name} {kind}", (out is y, y, y._version, y.grad_fn.name(),
                                                   _edges(y.grad_fn)))
            y.sum().backward()
            rec(f"{name} {kind} grad", a.grad)
    x = T.tensor([1, 2, 3])
    x.lt_(2.5)
    rec("int", (x, x.dtype == T.int64))
    with rec.raises("output with shape", name="broadcast"):
        T.tensor([1.0, 2.0]).eq_(T.ones(2, 2))
    with rec.raises("leaf Variable that requires grad", name="leaf"):
        T.ones(2, requires_grad=True).eq_(1)


def case_median_and_nanmedian(T, rec):
    nan = float("nan")
    rows = T.tensor([[1.0, 3.0, 2.0, nan], [4.0, 1.0, 1.0, 1.0], [nan, 5.0, nan, 3.0],
                     [2.0, 1.0, 2.0, 1.0]], requires_grad=True)
    for name in ("median", "nanmedian"):
        f = getattr(T, name)
        for dim in (0, 1, -1):
            values, indices = f(rows, dim, keepdim=dim == 0)
            rec(f"{name} {dim}", (values, indices, values.grad_fn.name()))
            values.sum().backward()
            rec(f"{name} {dim} grad", rows.grad)
            rows.grad = None
        whole = getattr(rows[1:3], name)()
        whole.backward()
        rec(f"{name} all", (whole, whole.grad_fn.name(), rows.grad))
        rows.grad = None
        rec(f"{name} ints", (getattr(T.tensor([3, 1, 2, 5]), name)(),
                             getattr(T.tensor([[3, 1], [2, 5]]), name)(0)))
        rec(f"{name} empty", getattr(T.tensor([]), name)())
        with rec.raises("Expected reduction dim 0 to have non-zero size", name=f"{name} dim 0"):
            getattr(T.tensor([]), name)(0)


def case_warn_always_repeats_the_once_per_process_warnings(T, rec):
    import warnings
    was = T.is_warn_always_enabled()
    T.set_warn_always(True)
    try:
        rec("enabled", T.is_warn_always_enabled())
        x = T.ones(2, 3, 4)
        for attempt in range(2):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                x.T
            rec(f"T warns {attempt}", [str(w.message)[:40] for w in caught])
    finally:
        T.set_warn_always(was)
    rec("restored", T.is_warn_always_enabled() == was)


def case_batched_grads_of_several_outputs(T, rec):
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    unused = T.tensor([1.0], requires_grad=True)
    y, z = x * x, (x ** 3).sum()
    vectors = T.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    gx, gu = T.autograd.grad((y, z), (x, unused), (vectors, T.tensor([1.0, 2.0])),
                             create_graph=True, allow_unused=True, is_grads_batched=True)
    rec("grads", (gx, gu, gx.requires_grad))
    second, = T.autograd.grad(gx.sum(), x)
    rec("second order", second)
    out = x.exp()
    T.autograd.grad(out, x, T.eye(3), is_grads_batched=True)
    with rec.raises("backward through the graph a second time", name="freed"):
        T.autograd.grad(out, x, T.eye(3), is_grads_batched=True)


def case_inplace_view_ops_change_the_tensor_itself(T, rec):
    x = T.tensor([[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]], requires_grad=True)
    y = x * 1
    for name, args in (("squeeze_", (1,)), ("t_", ()), ("unsqueeze_", (0,)),
                       ("transpose_", (0, 2)), ("swapdims_", (1, 2)), ("swapaxes_", (0, 1)),
                       ("squeeze_", ())):
        out = getattr(y, name)(*args)
        rec(f"{name}{args}", (out is y, tuple(y.shape), y.stride(), y._version, y.grad_fn.name(),
                   y.is_contiguous()))
    (y * T.arange(6.0).reshape(y.shape)).sum().backward()
    rec("grad", x.grad)
    base = x.detach() * 1
    view = base[0]
    view.t_()
    base.mul_(2)
    rec("view of a changed base", (view, tuple(view.shape), base._version, view._version))
    with rec.raises("t_() expects a tensor with <= 2 dimensions", name="t_ of 3-D"):
        T.ones(2, 3, 4).t_()


def case_resize_keeps_the_first_elements(T, rec):
    x = T.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    x.resize_(2, 2)
    rec("smaller", (x, x._version))
    x.resize_((2, 2))
    rec("same", x._version)
    x.resize_as_(T.ones(4, 1))
    rec("as", (tuple(x.shape), x._version))
    with rec.raises("cannot resize variables that require grad", name="requires grad"):
        T.ones(2, requires_grad=True).resize_(3)
    with rec.raises("integer multiplication overflow", name="negative"):
        T.ones(2).resize_(2, -3)
    y = T.tensor([[1, 2], [3, 4]])
    y.resize_(1)
    rec("one", (y, y.dtype == T.int64))


def case_out_arguments_write_into_the_given_tensor(T, rec):
    import warnings
    a, b = T.tensor([[1.0, 2.0], [3.0, 4.0]]), T.tensor([0.5, 2.0])
    out = T.zeros(2, 2)
    result = T.mul(a, b, out=out)
    rec("mul", (result is out, out, out._version))
    empty = T.zeros(0)
    T.cat([b, b], out=empty)
    rec("cat into empty", (empty, empty._version))
    wrong = T.zeros(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        T.exp(a, out=wrong)
    rec("resized", (tuple(wrong.shape), wrong._version, [str(w.message)[:45] for w in caught]))
    with rec.raises("can't be cast to the desired output type", name="int out"):
        T.add(a, 1, out=T.zeros(2, 2, dtype=T.int64))
    with rec.raises("don't support automatic differentiation", name="requires grad"):
        T.sum(a.requires_grad_(), 0, out=T.zeros(2))
    with T.no_grad():
        rec("no_grad", T.sum(a, 0, out=T.zeros(2)))


def case_more_tensor_ops_and_their_errors(T, rec):
    x = T.tensor([[3.0, 1.0, 2.0], [1.0, 5.0, 4.0]], requires_grad=True)
    outs = {"kthvalue": x.kthvalue(2, 1), "unflatten": x.unflatten(1, (3, 1)),
            "tensor_split": x.tensor_split([1, 5], 1), "clamp_min": x.clamp_min(2.0),
            "clamp_max": T.clamp_max(x, 2.0), "index_fill": x.index_fill(0, T.tensor([1]), 0.5),
            "mv": x.mv(T.tensor([1.0, 2.0, 3.0])), "bmm": T.bmm(x[None], x.t()[None]),
            "mode": T.tensor([[1.0, 2.0, 2.0, 1.0, 3.0], [5.0, 1.0, 5.0, 2.0, 5.0]]).mode(),
            "mode 0": (x * 1).mode(0, keepdim=True)}
    for name, out in outs.items():
        parts = out if isinstance(out, tuple) else (out,)
        rec(name, [(p, p.grad_fn.name() if p.grad_fn else None) for p in parts])
    for name, call, words in (
            ("kthvalue k", lambda: x.kthvalue(4, 1), "selected number k out of range"),
            ("unflatten sizes", lambda: x.unflatten(1, (2, 2)), "don't multiply up to the size"),
            ("tensor_split 0", lambda: x.tensor_split(0), "number of sections must be larger"),
            ("index_fill dtype", lambda: x.index_fill(0, T.tensor([0.0]), 1.0), "int64"),
            ("index_fill range", lambda: x.index_fill(0, T.tensor([2]), 1.0), "out of bounds"),
            ("mv ranks", lambda: x.mv(x), "vector + matrix @ vector expected"),
            ("bmm rank", lambda: x.bmm(x), "batch1 must be a 3D tensor"),
            ("bmm sizes", lambda: T.bmm(x[None], x[None]), "Expected size for first two")):
        with rec.raises(words, name=name):
            call()


def case_increment_version_of_a_list_of_tensors_refuses_their_saved_values(T, rec):
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b, c = a.clone(), a.clone()
    out = (b * c).sum()
    T.autograd.graph.increment_version([b, c])
    rec("versions", (b._version, c._version))
    with rec.raises("modified by an inplace operation"):
        out.backward()


def case_allow_mutation_clones_only_what_shares_the_first_element(T, rec):
    with T.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
        a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = a.clone()
        out = (b ** 2).sum()
        b[1:].mul_(10)                 # a view that starts elsewhere: nothing is cloned
        rec("cloned", len(list(ctx.cloned.items())))
        with rec.raises("modified by an inplace operation", name="backward"):
            out.backward()
        c = a.clone()
        out = (c ** 2).sum()
        c[:2].mul_(10)                 # starts where c starts: c is cloned first
        out.backward()
        rec("grad", a.grad)


def case_inference_tensors_record_nothing_among_themselves(T, rec):
    with T.inference_mode():
        c = T.ones(2, requires_grad=True)
    s = T.ones(2, requires_grad=True)
    rec("alone", ((c * 2).requires_grad, c[0].requires_grad, c[0]._is_view(),
                  c.exp().is_inference()))
    out = (c + s).sum()
    out.backward()
    rec("mixed", (out.requires_grad, c.grad, s.grad))


def case_saved_sizes_and_indices_of_shape_nodes(T, rec):
    a = T.ones(2, 3, requires_grad=True)
    i = T.tensor([1, 0])
    for name, out in (("sum", a.sum()), ("sum dim", a.sum(0)), ("mean", a.mean()),
                      ("mean dim", a.mean(1)), ("view", a.view(6)), ("expand", a.expand(4, 2, 3)),
                      ("index", a[i, :])):
        rec(name, tuple(out.grad_fn._saved_self_sym_sizes))
    rec("indices", (a[i, :].grad_fn._saved_indices, a[:, i].grad_fn._saved_indices))
    raw = a[:, i].grad_fn._raw_saved_indices
    rec("raw", ([type(r).__name__ for r in raw], raw[1].data))


def case_view_made_in_no_grad_refuses_its_base_changed_in_place(T, rec):
    a = T.ones(3, requires_grad=True).clone()
    with T.no_grad():
        v = a[1:]
    w = v.view(2)                        # a view of that view, made in grad mode
    a.mul_(2)
    with rec.raises("A view was created in no_grad mode and its base or another view of its "
                    "base has been modified inplace with grad mode enabled", name="grad_fn"):
        v.grad_fn
    with rec.raises("is a view of a view which was created in no_grad mode", name="view of"):
        w.add_(1)
    with T.no_grad():
        w.add_(1)                        # both in no_grad: allowed
    rec("values", a)


def case_one_element_of_an_expanded_tensor_can_be_written(T, rec):
    g = T.tensor([2.0]).expand(4)
    g[1] = 0                             # one memory location: every element shows it
    rec("select", g)
    g[2] /= 0
    rec("divided", g)
    with rec.raises("more than one element of the written-to tensor", name="slice"):
        g[:2] = 5
    with rec.raises("more than one element of the written-to tensor", name="add_"):
        g.add_(1)
    m = T.ones(2, 1).expand(2, 3)
    m[1, 2] = 7
    rec("row", m)


def case_pure_view_custom_function_output_changes_in_place_as_a_view(T, rec):
    class Narrow(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx._is_pure_view = True
            return a.narrow(0, 0, 2)

        @staticmethod
        def backward(ctx, g):
            return T.cat([g, T.zeros(1, dtype=g.dtype)])

    class Two(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx._is_pure_view = True
            return a.narrow(0, 0, 2)

        @staticmethod
        def backward(ctx, g):
            return g, g

    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a = x.clone()
    t = Narrow.apply(a)
    t += 3
    rec("after", (a, t._is_view()))
    (t * t).sum().backward()
    rec("grad", x.grad)
    with rec.raises("Pure view custom Function can only have one input Tensor"):
        Two.apply(x.clone(), x.clone())


def case_saved_attributes_of_select_slice_transpose_and_norm(T, rec):
    x = T.ones(3, 4, requires_grad=True)
    for name, out in (("row", x[1]), ("column", x[:, 2]), ("tail", x[1:]), ("strided", x[:, ::2]),
                      ("middle", x[:, 1:3]), ("negative", x[-2:-1])):
        node = out.grad_fn
        rec(name, {a: getattr(node, "_saved_" + a) for a in
                   ("dim", "index", "start", "end", "step", "self_sym_sizes")
                   if hasattr(node, "_saved_" + a)})
    node = x.transpose(1, 0).grad_fn
    rec("transpose", (node._saved_dim0, node._saved_dim1))
    node = x.norm(p=2, dim=1, keepdim=True).grad_fn
    rec("norm", (node._saved_ord, node._saved_keepdim, node._saved_result.shape))
    node = x.mm(x.t()).grad_fn
    rec("mm", (node._saved_self_sym_sizes, node._saved_mat2_sym_sizes))


def case_view_made_before_its_base_required_grad_is_a_view_of_a_leaf(T, rec):
    x = T.zeros(2)
    v = x[0:]
    x.requires_grad_()
    with rec.raises("a view of a leaf Variable that requires grad"):
        v.add_(1)


def case_gradcheck_counts_a_nan_in_the_jacobians_as_a_mismatch(T, rec):
    # a naive log-sum-exp of large entries: both Jacobians are NaN, which gradcheck reports as
    # a mismatch (not as a backward that forgot grad_output, which it multiplies)
    class NaiveLogSumExp(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.exp().sum(dim=-1).log()

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return grad_output.unsqueeze(-1) * x.exp() / x.exp().sum(dim=-1, keepdim=True)

    large = (T.arange(6, dtype=T.float64).reshape(2, 3) + 1000).requires_grad_()
    with rec.raises("Jacobian mismatch for output 0 with respect to input 0"):
        T.autograd.gradcheck(NaiveLogSumExp.apply, (large,))
    rec("returns", T.autograd.gradcheck(NaiveLogSumExp.apply, (large,), raise_exception=False))
    small = T.arange(6, dtype=T.float64).reshape(2, 3).requires_grad_()
    rec("small", T.autograd.gradcheck(NaiveLogSumExp.apply, (small,)))
