"""Differential cases from probing minigrad the way students use it: small training
programs, losses, dtypes, and the mistakes a learner makes.  Each case once differed
from PyTorch; each records what PyTorch does."""
import numpy as np


def case_format_a_scalar_loss(T, rec):
    loss = T.tensor(1.328125, requires_grad=True)
    rec("f-string", f"loss {loss:.3f}")
    rec("empty spec", f"{T.tensor(2.5)}")
    with rec.raises("unsupported format string", name="vector with a spec"):
        f"{T.tensor([1.0, 2.0]):.2f}"


def case_power_assignment_is_in_place(T, rec):
    x = T.tensor([2.0, 3.0], requires_grad=True)
    y = x * 1
    alias = y
    y **= 2
    rec("alias sees it", alias)
    rec("node", y.grad_fn.name())
    rec("version", y._version)
    y.sum().backward()
    rec("x.grad", x.grad)
    e = T.tensor([2.0, 1.0], requires_grad=True)
    z = x * 1
    z.pow_(e)
    rec("tensor exponent node", z.grad_fn.name())
    z.sum().backward()
    rec("x.grad after", x.grad)
    rec("e.grad", e.grad)
    w = x * 1
    w.pow_(3)
    g, = T.autograd.grad(w.sum(), x, create_graph=True)
    rec("first", g)
    rec("second", T.autograd.grad(g.sum(), x)[0])
    a = T.tensor([2, 3])
    a **= 2
    rec("ints", a)
    with rec.raises("can't be cast", name="int to a float power"):
        b = T.tensor([2, 3])
        b **= 0.5
    with rec.raises("leaf Variable", name="leaf"):
        leaf = T.tensor([1.0], requires_grad=True)
        leaf **= 2
    with rec.raises("modified by an inplace operation", name="saved result changed"):
        y = x.exp()
        y.pow_(2)
        y.sum().backward()


def case_where_of_two_numbers(T, rec):
    cond = T.tensor([True, False])
    rec("floats", T.where(cond, 1.0, 0.0))
    rec("ints", T.where(cond, 1, 0))
    rec("mixed", T.where(cond, 1, 0.5))


def case_clamp_of_integers_to_float_bounds(T, rec):
    rec("float bounds", T.tensor([1, 5, -3]).clamp(0.5, 3.5))
    rec("int bounds", T.tensor([1, 5, -3]).clamp(0, 3))
    rec("float tensor", T.tensor([1.0, 5.0], dtype=T.float64).clamp(max=2))


def case_integer_promotion_across_signedness(T, rec):
    rec("uint8 + int8", T.tensor([200], dtype=T.uint8) + T.tensor([1], dtype=T.int8))
    rec("int8 + uint8", T.tensor([1], dtype=T.int8) + T.tensor([253], dtype=T.uint8))
    rec("uint8 * int16", T.tensor([3], dtype=T.uint8) * T.tensor([-2], dtype=T.int16))


def case_tensor_of_numpy_scalars(T, rec):
    for name, value in [("float64", np.float64(1.5)), ("float32", np.float32(1.5)),
                        ("int32", np.int32(3)), ("list mixed", [1.0, np.float32(2)]),
                        ("list ints", [np.int32(1), 2]), ("list int float16", [np.int32(1), np.float16(2)]),
                        ("nested", [[np.float32(1)], [np.float32(2)]]), ("bool", [np.bool_(True)])]:
        rec(name, T.tensor(value))


def case_std_and_var_with_a_large_correction(T, rec):
    x = T.tensor([1.0, 2.0])
    rec("var", x.var(correction=2))
    rec("std", x.std(correction=5))
    rec("one element", T.tensor([1.0]).var())
    rec("by dim", T.tensor([[1.0, 2.0], [3.0, 5.0]]).var(0, correction=2))


def case_vector_norms_of_every_order(T, rec):
    for p in (0, float("inf"), -float("inf"), 1, 2, 3, 0.5, 1.5, -1):
        x = T.tensor([[1.0, 0.0, -2.0], [3.0, 1.0, 0.0]], requires_grad=True)
        n = x.norm(p=p)
        n.backward()
        rec(f"p={p}", n)
        rec(f"p={p} grad", x.grad)
        y = T.tensor([[1.0, 0.0, -2.0], [3.0, 1.0, 0.0]], requires_grad=True)
        m = y.norm(p=p, dim=1)
        m.sum().backward()
        rec(f"p={p} dim", m)
        rec(f"p={p} dim grad", y.grad)


def case_softmax_of_odd_inputs(T, rec):
    rec("0-dim softmax", T.softmax(T.tensor(3.0), 0))
    rec("0-dim log_softmax", T.log_softmax(T.tensor(3.0), 0))
    rec("functional 0-dim", T.nn.functional.softmax(T.tensor(3.0), dim=0))
    rec("empty", T.softmax(T.zeros(0), 0))
    rec("empty rows", T.log_softmax(T.zeros(0, 3), 0))
    for f in (T.softmax, T.log_softmax):
        x = T.tensor(3.0, requires_grad=True)
        g, = T.autograd.grad(f(x, 0), x, create_graph=True)
        rec(f"{f.__name__} 0-dim grad", g)
        rec(f"{f.__name__} 0-dim node", g.grad_fn.name())
        for name, bad in (("int", T.tensor([1, 2])), ("int rows", T.tensor([[1, 2]])),
                          ("bool", T.tensor([True])), ("int32", T.tensor([1], dtype=T.int32))):
            with rec.raises("not implemented for", name=f"{f.__name__} {name}"):
                f(bad, 0)
    with rec.raises("Dimension out of range", name="dim 1 of a 0-dim"):
        T.softmax(T.tensor(3.0), 1)


def case_relu_double_backward(T, rec):
    x = T.tensor([1.0, -1.0, 2.0], requires_grad=True)
    g, = T.autograd.grad((x.relu() * x).sum(), x, create_graph=True)
    rec("g", g)
    rec("edges", g.grad_fn.next_functions)
    rec("second", T.autograd.grad(g.sum(), x)[0])
    y = T.tensor([1.0, -1.0], requires_grad=True)
    h, = T.autograd.grad(y.relu().sum(), y, create_graph=True)
    rec("requires grad", h.requires_grad)
    rec("node", h.grad_fn.name())
    rec("zero second", T.autograd.grad(h.sum(), y)[0])
    z = T.tensor([float("nan"), 1.0], requires_grad=True)
    (z * 0 - 1).relu().backward(T.tensor([float("nan"), 2.0]))
    rec("nan through relu", z.grad)


def case_nll_loss_double_backward(T, rec):
    F = T.nn.functional
    for reduction in ("mean", "sum", "none"):
        x = T.tensor([[-1.0, -2.0], [0.5, 1.5], [0.1, 0.2]], requires_grad=True)
        loss = F.nll_loss(x, T.tensor([1, 0, -100]), weight=T.tensor([2.0, 0.5]),
                          reduction=reduction)
        g, = T.autograd.grad(loss.sum(), x, create_graph=True)
        rec(f"{reduction} g", g)
        rec(f"{reduction} node", g.grad_fn.name())
        rec(f"{reduction} edges", g.grad_fn.next_functions)
        rec(f"{reduction} second", T.autograd.grad(g.sum(), x)[0])
        x = T.tensor([[1.0, 2.0], [0.5, 1.5]], requires_grad=True)
        loss = F.cross_entropy(x, T.tensor([1, 0]), reduction=reduction)
        seed = T.ones_like(loss, requires_grad=True)
        g, = T.autograd.grad(loss, x, seed, create_graph=True)
        rec(f"{reduction} ce g", g)
        rec(f"{reduction} ce second", T.autograd.grad(g.sum(), (x, seed)))
    x = T.tensor([[-1.0, -2.0]], requires_grad=True)
    y = x * 1
    loss = F.nll_loss(y, T.tensor([1]))
    y.add_(1)
    with rec.raises("modified by an inplace operation", name="input changed"):
        loss.backward()


def case_cross_entropy_checks_and_weights(T, rec):
    F = T.nn.functional
    scores = T.tensor([[1.0, 2.0], [0.0, 1.0]])
    probs = T.tensor([[0.3, 0.7], [1.0, 0.0]])
    for reduction in ("mean", "sum", "none"):
        rec(f"prob targets weighted {reduction}",
            F.cross_entropy(scores, probs, weight=T.tensor([2.0, 0.5]), reduction=reduction))
    x = T.tensor([[2.0, 1.0], [0.5, 2.5]], requires_grad=True)
    loss = F.cross_entropy(x, T.tensor([-100, -100]))
    loss.backward()
    rec("all ignored", loss)
    rec("all ignored grad", x.grad)
    rec("byte target", F.nll_loss(T.zeros(2, 2), T.tensor([0, 1], dtype=T.uint8)))
    rec("1-d input", F.nll_loss(T.tensor([-1.0, -2.0]), T.tensor(1)))
    rec("1-d input, one target", F.nll_loss(T.tensor([-1.0, -2.0]), T.tensor([1])))
    bad = [
        ("batch_size", lambda: F.cross_entropy(T.zeros(3, 2), T.tensor([0, 1]))),
        ("batch_size", lambda: F.nll_loss(T.zeros(3, 2), T.tensor([0., 1.]))),
        ("batch_size", lambda: F.cross_entropy(scores, T.tensor([[0.3, 0.7]]))),
        ("batch_size", lambda: F.nll_loss(T.zeros(2, 2), T.tensor([[0]]))),
        ("1D target must have size 1", lambda: F.nll_loss(T.zeros(2), T.tensor([0, 1]))),
        ("expected target dtype", lambda: F.nll_loss(T.zeros(2, 2), T.tensor([0.0, 1.0]))),
        ("expected target dtype",
         lambda: F.cross_entropy(T.tensor([[2.0, 1.0]]), T.tensor([0], dtype=T.int32))),
        ("weight tensor should be defined",
         lambda: F.nll_loss(T.zeros(2, 2), T.tensor([0, 1]), weight=T.ones(3))),
        ("cross_entropy: weight tensor",
         lambda: F.cross_entropy(scores, probs, weight=T.tensor([2.0, 0.5, 1.0]))),
        ("expected scalar type Double",
         lambda: F.cross_entropy(T.zeros(1, 2, dtype=T.float64), T.tensor([0]),
                                 weight=T.ones(2))),
        ("Found dtype Double",
         lambda: F.binary_cross_entropy(T.tensor([0.3]), T.tensor([1.0], dtype=T.float64))),
        ("Found dtype Long", lambda: F.binary_cross_entropy(T.tensor([0.3]), T.tensor([1]))),
        ("can't be cast",
         lambda: F.binary_cross_entropy_with_logits(T.tensor([0.3]), T.tensor([1]))),
    ]
    for number, (phrase, call) in enumerate(bad):
        with rec.raises(phrase, name=f"refused {number}"):
            call()
    rec("float64 target with logits",
        F.binary_cross_entropy_with_logits(T.tensor([0.3]), T.tensor([1.0], dtype=T.float64)))


def case_power_of_zero_to_a_zero_tensor_exponent(T, rec):
    b = T.tensor([0.0, 2.0, 0.0], requires_grad=True)
    e = T.tensor([0.0, 3.0, 2.0], requires_grad=True)
    g = T.autograd.grad((b ** e).sum(), (b, e), create_graph=True)
    rec("first", g)
    rec("nodes", [t.grad_fn.name() for t in g])
    rec("second", T.autograd.grad(g[0].sum(), (b, e)))
    c = T.tensor([[0.0, 2.0]], requires_grad=True)
    (c ** T.tensor([[0.0], [3.0]])).sum().backward()
    rec("broadcast", c.grad)


def case_bool_tensors_in_unary_ops(T, rec):
    b = T.tensor([True, False])
    for name in ("abs", "floor", "ceil", "round", "trunc"):
        with rec.raises("not implemented for 'Bool'", name=name):
            getattr(b, name)()
    with rec.raises("Boolean inputs not supported", name="relu"):
        T.relu(b)
    rec("sign", T.sign(b))
    for name in ("exp", "sigmoid", "sqrt", "square", "sin"):
        rec(name, getattr(b, name)())


def case_empty_gradients_accumulate(T, rec):
    x = T.zeros(0, 3, requires_grad=True)
    x.sum().backward()
    x.sum().backward()
    rec("grad", x.grad)
