"""Differential cases for the common tensor ops beyond the basics (split, cumsum, norm,
gather ...): values, dtypes, grad_fn names, gradients, a second derivative, views and
in-place checks, error texts.  Same rules as cases_extra.py."""


def _n(value):
    return str(value).replace("torch.", "minigrad.")


def _x(T):
    return T.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75], [-2.0, 3.0, 1.0], [0.1, 0.2, 0.3]],
                    requires_grad=True)


def case_ops_views_split_chunk_unbind_narrow(T, rec):
    x = _x(T)
    pieces = {"split": x.split(3), "split sizes": T.split(x, [1, 2], 1), "chunk": x.chunk(3),
              "chunk dim 1": T.chunk(x, 2, dim=1), "unbind": x.unbind(), "unbind 1": T.unbind(x, 1)}
    for name, parts in pieces.items():
        rec(name, [p for p in parts])
        rec(name + " nodes", [p.grad_fn.name() for p in parts])
        rec(name + " is view", [p._base is x for p in parts])
    rec("narrow", x.narrow(1, 1, 2))
    rec("narrow node", x.narrow(0, -2, 1).grad_fn.name())
    rec("movedim", T.movedim(x, 0, 1).grad_fn.name())
    rec("swapaxes", x.swapaxes(0, 1))
    a, b = x.split(2)
    (g,) = T.autograd.grad((a * b * b).sum(), x, create_graph=True)
    rec("grad", g)
    rec("grad node", g.grad_fn.name())
    (gg,) = T.autograd.grad(g.sum(), x)
    rec("second-order grad", gg)
    y = x.detach().clone()
    first, second = y.split(2)
    first.mul_(2)
    rec("in-place through a split piece", y)
    rec("version shared", (y._version, second._version))
    with rec.raises("is a view and is being modified inplace", "returns multiple views",
                    name="in-place on a piece that requires grad"):
        x.unbind()[0].mul_(2)
    with rec.raises("split_size can only be 0 if dimension size is 0", name="split 0"):
        x.split(0)
    with rec.raises("split_with_sizes expects split_sizes to sum exactly to 4",
                    name="split sizes error"):
        x.split([1, 2])
    with rec.raises("chunk expects `chunks` to be greater than 0", name="chunk 0"):
        x.chunk(0)
    with rec.raises("start (3) + length (2) exceeds dimension size (4)", name="narrow error"):
        x.narrow(0, 3, 2)


def case_ops_picking_and_tiling(T, rec):
    x = _x(T)
    index = T.tensor([[0, 2, 1], [3, 3, 0]])
    results = {"gather": x.gather(0, index), "index_select": T.index_select(x, 1, T.tensor([2, 0])),
               "repeat": x.repeat(2, 1, 2), "flip": T.flip(x, (0, 1)), "roll": x.roll(1, 0),
               "roll flat": T.roll(x, -2), "tril": x.tril(), "triu": T.triu(x, 1),
               "outer": T.outer(x[0], x[1])}
    for name, out in results.items():
        rec(name, out)
        rec(name + " node", out.grad_fn.name())
        rec(name + " grad", T.autograd.grad((out * out).sum(), x)[0])
    (g,) = T.autograd.grad((x.gather(1, T.tensor([[0, 2], [1, 1], [2, 0], [0, 0]])) ** 2).sum(), x, create_graph=True)
    rec("gather second-order", T.autograd.grad(g.sum(), x)[0])
    rec("int outer dtype", _n(T.outer(T.tensor([1, 2]), T.tensor([3, 4])).dtype))
    with rec.raises("index 5 is out of bounds for dimension 0 with size 4", name="gather oob"):
        x.gather(0, T.tensor([[5, 0, 0]]))
    with rec.raises("gather(): Expected dtype int32/int64 for index", name="gather dtype"):
        x.gather(0, T.tensor([[1.0, 0, 0]]))
    with rec.raises("index out of range in self", name="index_select oob"):
        x.index_select(0, T.tensor([7]))
    with rec.raises("Number of dimensions of repeat dims can not be smaller", name="repeat error"):
        x.repeat(2)
    with rec.raises("tril: input tensor must have at least 2 dimensions", name="tril 1-d"):
        T.tril(T.ones(3))


def case_ops_reductions(T, rec):
    x = _x(T)
    results = {"cumsum": x.cumsum(1), "prod": x.prod(), "prod dim": T.prod(x, 0, keepdim=True),
               "amax": x.amax(1), "amin all": T.amin(x), "amax dims": x.amax((0, 1)),
               "logsumexp": T.logsumexp(x, 1), "norm": x.norm(), "norm dim": x.norm(dim=1),
               "norm p1": T.norm(x, p=1), "vector_norm inf": x.norm(p=float("inf")),
               "var": x.var(), "var dim": T.var(x, 0), "var biased": x.var(1, unbiased=False),
               "std": x.std(), "std correction 0": T.std(x, 1, correction=0, keepdim=True)}
    for name, out in results.items():
        rec(name, out)
        rec(name + " node", out.grad_fn.name())
        rec(name + " grad", T.autograd.grad(out.sum(), x)[0])
    (g,) = T.autograd.grad(x.std(), x, create_graph=True)
    rec("std second-order", T.autograd.grad((g * g).sum(), x)[0])
    (g,) = T.autograd.grad(x.logsumexp(0).sum(), x, create_graph=True)
    rec("logsumexp second-order", T.autograd.grad((g * g).sum(), x)[0])
    zero = T.tensor([[2.0, 0.0, 3.0], [0.0, 0.0, 1.0]], requires_grad=True)
    rec("prod with zeros grad", T.autograd.grad(zero.prod(1).sum(), zero)[0])
    rec("prod all with a zero grad", T.autograd.grad(zero[0].prod(), zero)[0])
    ints = T.tensor([[1, 2], [3, 4]])
    rec("int cumsum", ints.cumsum(0))
    rec("int cumsum dtype", _n(T.tensor([True, True]).cumsum(0).dtype))
    rec("int32 prod dtype", _n(T.tensor([2, 3], dtype=T.int32).prod().dtype))
    rec("int logsumexp", T.logsumexp(ints, 1))
    with rec.raises("std and var only support floating point and complex dtypes", name="int var"):
        ints.var()
    with rec.raises("linalg.vector_norm: Expected a floating point or complex tensor as input",
                    name="int norm"):
        ints.norm()


def case_ops_elementwise(T, rec):
    x = T.tensor([0.25, 0.5, -0.75, 0.9], requires_grad=True)
    names = ["log1p", "expm1", "sinh", "cosh", "asin", "acos", "atan", "floor", "ceil",
             "round", "trunc"]
    for name in names:
        out = getattr(x, name)()
        rec(name, out)
        rec(name + " node", out.grad_fn.name())
        rec(name + " function", getattr(T, name)(x))
        rec(name + " grad", T.autograd.grad(out.sum(), x)[0])
    p = T.tensor([0.5, 2.0, 8.0], requires_grad=True)
    for name in ("log2", "log10"):
        out = getattr(T, name)(p)
        rec(name, out)
        rec(name + " node", out.grad_fn.name())
        rec(name + " grad", T.autograd.grad(out.sum(), p)[0])
    rec("round decimals", (x * 10).round(decimals=1))
    rec("round decimals node", x.round(decimals=1).grad_fn.name())
    angle = T.atan2(x, T.tensor([1.0, -1.0, 0.5, -2.0]))
    rec("atan2", angle)
    rec("atan2 node", angle.grad_fn.name())
    rec("atan2 grad", T.autograd.grad(angle.sum(), x)[0])
    soft = T.nn.functional.softplus(x * 30, beta=2, threshold=20)
    rec("softplus", soft)
    rec("softplus node", soft.grad_fn.name())
    (g,) = T.autograd.grad(T.nn.functional.softplus(x).sum(), x, create_graph=True)
    rec("softplus grad", g)
    rec("softplus second-order", T.autograd.grad(g.sum(), x)[0])
    (g,) = T.autograd.grad(x.asin().sum(), x, create_graph=True)
    rec("asin second-order", T.autograd.grad(g.sum(), x)[0])
    ints = T.tensor([1, 2, 3])
    rec("int log1p dtype", _n(ints.log1p().dtype))
    rec("int floor", ints.floor())
    rec("int floor dtype", _n(ints.floor().dtype))
    special = T.tensor([1.0, float("nan"), float("inf"), -float("inf")])
    rec("isnan", T.isnan(special))
    rec("isinf", special.isinf())
    rec("isfinite", special.isfinite())


def case_ops_constructors_and_layout(T, rec):
    x = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=T.float64)
    made = {"new_zeros": x.new_zeros(2, 3), "new_ones": x.new_ones((2,)),
            "new_full": x.new_full((2, 2), 7), "new_tensor": x.new_tensor([1, 2]),
            "new_zeros int": x.new_zeros(3, dtype=T.int64),
            "new_ones grad": x.new_ones(2, requires_grad=True)}
    for name, t in made.items():
        rec(name, t)
        rec(name + " dtype", _n(t.dtype))
        rec(name + " requires_grad", t.requires_grad)
    rec("type_as", x.type_as(T.tensor([1])))
    rec("expand_as", T.tensor([1.0, 2.0, 3.0]).expand_as(x))
    rec("stride", x.stride())
    rec("stride of t()", x.t().stride())
    rec("stride dim", x.stride(1))
    rec("nbytes", x.nbytes)
    rec("any", T.any(x > 5))
    rec("all", T.all(x > 0))
    rec("any dim", T.any(x > 4, dim=1))
    rec("all dim keepdim", T.all(x > 1, 0, keepdim=True))


def case_any_all_methods_take_a_dim(T, rec):
    x = T.tensor([[1.0, 0.0], [1.0, 1.0]])
    rec("methods", (x.all(), x.any(), x.all(1), x.any(0, keepdim=True), x.all(dim=-1)))
    rec("functions", (T.all(x), T.any(x, 1), T.all(x > 0, dim=0)))


def case_ops_sort_and_topk(T, rec):
    x = _x(T)                                   # distinct values: no ties
    results = {"sort": x.sort(), "sort dim 0": T.sort(x, 0),
               "sort descending": x.sort(descending=True), "sort positional": x.sort(0, True),
               "sort stable": T.sort(x, dim=0, descending=True, stable=True),
               "topk": x.topk(2), "topk dim 0 smallest": T.topk(x, 3, dim=0, largest=False),
               "topk k=0": x.topk(0)}
    for name, (values, indices) in results.items():
        rec(name, (values, indices))
        rec(name + " node", values.grad_fn.name())
        rec(name + " indices", (_n(indices.dtype), indices.requires_grad))
        rec(name + " grad", T.autograd.grad((values * values).sum(), x)[0])
    rec("named", (type(x.sort()).__name__, type(x.topk(1)).__name__, type(x.max(1)).__name__))
    rec("repr starts", _n(repr(x.topk(1))).split("(")[0])
    values, indices = x.topk(2, 1)
    rec("unpacked", (values, indices, len(x.topk(2, 1)), x.topk(2, 1)[1]))
    unordered = x.topk(3, 0, sorted=False)      # PyTorch's order is unspecified: compare as sets
    rec("topk unsorted", (unordered.values.sort(0).values, unordered.indices.sort(0).values))
    (g,) = T.autograd.grad((x.sort(1).values[:, :2] ** 3).sum(), x, create_graph=True)
    rec("sort grad node", g.grad_fn.name())
    rec("sort second-order", T.autograd.grad(g.sum(), x)[0])
    (g,) = T.autograd.grad((x.topk(2, 0).values ** 3).sum(), x, create_graph=True)
    rec("topk second-order", T.autograd.grad(g.sum(), x)[0])
    ties = T.tensor([float(i % 3) for i in range(40)] + [float("nan"), 1.0, float("nan")])
    for descending in (False, True):
        rec(f"stable ties descending={descending}",
            T.sort(ties, descending=descending, stable=True))
    rec("ints and bools", (T.tensor([3, 1, 2]).sort(descending=True),
                           T.tensor([True, False, True]).sort(stable=True),
                           T.tensor([1, 3, 2], dtype=T.uint8).sort(descending=True, stable=True)))
    scalar = T.tensor(2.5, requires_grad=True)
    rec("0-d", (scalar.sort(), scalar.topk(1), scalar.topk(0), T.sort(T.ones(0))))
    rec("0-d grad", T.autograd.grad(scalar.sort().values * 3, scalar)[0])
    with rec.raises("selected index k out of range", name="topk k too large"):
        x.topk(4)
    with rec.raises("selected index k out of range", name="topk k negative"):
        x.topk(-1)
    with rec.raises("topk does not support bool dtypes", name="topk bool"):
        T.tensor([True, False]).topk(1)
    with rec.raises("Dimension out of range (expected to be in range of [-2, 1], but got 2)",
                    name="sort bad dim"):
        x.sort(2)
    with rec.raises("Dimension out of range", name="topk bad dim"):
        T.topk(x, 1, dim=-3)
    with rec.raises("sort() received an invalid combination of arguments - got (int, stable=bool)",
                    name="sort positional dim with stable"):
        x.sort(0, stable=True)
    with rec.raises("sort() received an invalid combination of arguments - got (Tensor, int, "
                    "bool, stable=bool)", name="torch.sort positional with stable"):
        T.sort(x, 0, True, stable=False)


def case_ops_erf_diag_outer_where(T, rec):
    x = T.tensor([0.25, -0.5, 1.5, -3.0, 5.0], requires_grad=True)
    for name in ("erf", "erfc"):
        out = getattr(x, name)()
        rec(name, out)
        rec(name + " node", out.grad_fn.name())
        rec(name + " function", getattr(T, name)(x))
        (g,) = T.autograd.grad((out * out).sum(), x, create_graph=True)
        rec(name + " grad", g)
        rec(name + " grad node", g.grad_fn.name())
        rec(name + " second-order", T.autograd.grad(g.sum(), x)[0])
    wide = T.linspace(-30, 30, 2001, dtype=T.float64)     # the whole-array path and the tails
    rec("erf wide", T.erf(wide))
    rec("erfc wide", T.erfc(wide))
    rec("erf special", T.erf(T.tensor([0.0, -0.0, float("inf"), -float("inf"), float("nan")])))
    rec("erf ints", T.erf(T.tensor([0, 1, -2])))
    rec("erf float32", T.erf(T.tensor([0.3, -2.0])).dtype == T.float32)
    m = _x(T)
    for name, out in {"diag of a matrix": m.diag(), "diag above": T.diag(m, 1),
                      "diag below": T.diag(m, diagonal=-2), "diag past the end": m.diag(5),
                      "diag of a vector": T.diag(m[0]), "diag vector above": m[1].diag(2),
                      "diag vector below": T.diag(m[2], -1)}.items():
        rec(name, out)
        rec(name + " node", out.grad_fn.name())
        (g,) = T.autograd.grad((out * out).sum(), m, create_graph=True)
        rec(name + " grad", g)
        rec(name + " second-order", T.autograd.grad((g * g).sum(), m)[0])
    (g,) = T.autograd.grad((T.diag(m) ** 2).sum(), m, create_graph=True)
    rec("diag grad node", g.grad_fn.name())
    rec("diag ints", (T.diag(T.tensor([1, 2])), T.tensor([[1, 2], [3, 4]]).diag(-1)))
    with rec.raises("diag(): Supports 1D or 2D tensors. Got 3D", name="diag 3-d"):
        T.diag(T.ones(2, 2, 2))
    with rec.raises("diag(): Supports 1D or 2D tensors. Got 0D", name="diag 0-d"):
        T.tensor(1.0).diag()
    out = m[0].outer(m[1])
    rec("outer method", (out, out.grad_fn.name(), m[0].ger(m[1])))
    rec("outer grad", T.autograd.grad(out.sum(), m)[0])
    with rec.raises("outer: Expected 1-D argument vec2, but got 2-D", name="outer 2-d"):
        m[0].outer(m)
    picked = m.where(m > 0.4, m * 10)
    rec("where method", (picked, picked.grad_fn.name(), m.where(m < 0, 0.0)))
    rec("where grad", T.autograd.grad(picked.sum(), m)[0])
    with rec.raises("where expected condition to be a boolean tensor", name="where condition"):
        m.where(m, 0.0)
