"""Differential cases for what programs written for PyTorch (tutorials, docstrings,
answers, the custom Functions of libraries) meet: each case holds one behaviour such a
program showed to differ, reduced to its few lines.  The programs themselves run whole
in tests/differential/real_programs/ (tests/test_real_programs.py)."""
import warnings

import numpy as np


# --- values -------------------------------------------------------------------------------

def case_overwritten_element_gets_zero_not_nan(T, rec):
    """x.sqrt()'s gradient at 0 is inf: where an element was overwritten, PyTorch puts 0
    in its place (inf * 0 would be nan)."""
    x = T.tensor([1.0, 4.0, 9.0], requires_grad=True)
    r = x * 1
    r[0] = 0
    r.sqrt().sum().backward()
    rec("x.grad", x.grad)


def case_overwritten_slices_get_zero_not_nan(T, rec):
    for how in ("slice", "view zero_", "index_put", "mask"):
        x = T.tensor([0.0, 0.0, 4.0, 9.0], requires_grad=True)
        r = x * 1
        if how == "slice":
            r[0:2] = 0
        elif how == "view zero_":
            r[0:2].zero_()
        elif how == "index_put":
            r[T.tensor([0, 1])] = 0
        else:
            r[x < 1] = 0
        r.sqrt().sum().backward()
        rec(how, x.grad)


def case_maximum_loser_gets_zero_not_nan(T, rec):
    x = T.tensor([-1.0, 0.0, 4.0], requires_grad=True)
    T.maximum(x, T.zeros(3)).sqrt().sum().backward()
    rec("x.grad", x.grad)
    y = T.tensor([1.0, 0.0, -4.0], requires_grad=True)
    T.minimum(y, T.zeros(3)).neg().sqrt().sum().backward()
    rec("y.grad", y.grad)


def case_fill_with_a_tensor_value_passes_its_gradient(T, rec):
    x = T.ones(3, requires_grad=True)
    v = T.tensor(2.0, requires_grad=True)
    y = x * 2
    y.fill_(v)
    rec("node", y.grad_fn)
    rec("next", [n is None or n.name() for n, _ in y.grad_fn.next_functions])
    (y * T.arange(3.0)).sum().backward()
    rec("x.grad", x.grad)
    rec("v.grad", v.grad)
    with rec.raises("fill_ only supports 0-dimension value tensor", name="1-d value"):
        (x * 2).fill_(T.ones(2))


# --- behaviour ----------------------------------------------------------------------------

def case_post_accumulate_grad_hook_may_return_the_tensor(T, rec):
    """The SGD step of register_post_accumulate_grad_hook's docstring returns p.add_(...)."""
    lr = 0.01
    v = T.tensor([0.0, 0.0, 0.0], requires_grad=True)
    h = v.register_post_accumulate_grad_hook(lambda p: p.add_(p.grad, alpha=-lr))
    v.backward(T.tensor([1.0, 2.0, 3.0]))
    rec("v", v)
    h.remove()
    w = T.ones(2, 3, requires_grad=True)
    w.register_post_accumulate_grad_hook(lambda p: p)
    w.sum().backward()
    rec("returns itself", w.grad)


def case_post_accumulate_grad_hook_returning_another_value(T, rec):
    seen = []
    x = T.ones(2, 3, requires_grad=True)
    x.register_post_accumulate_grad_hook(lambda p: p * 2)
    x.register_post_accumulate_grad_hook(lambda p: seen.append(p.shape))
    with rec.raises("post accumulate grad hooks should return None", name="a new tensor"):
        x.sum().backward()
    rec("the next hook ran", len(seen))
    y = T.ones(2, requires_grad=True)
    y.register_post_accumulate_grad_hook(lambda p: 5)
    with rec.raises("expected Variable, but hook returned 'int'", name="a number"):
        y.sum().backward()
    z = T.ones(2, requires_grad=True)
    z.register_post_accumulate_grad_hook(lambda p: T.ones(5))
    with rec.raises("has changed the size of value", name="another shape"):
        z.sum().backward()


def case_inference_tensor_has_no_version(T, rec):
    with T.inference_mode():
        t = T.ones(2)
        with rec.raises("Inference tensors do not track version counter", name="inside"):
            t._version
        with rec.raises("Inference tensors do not track version counter", name="a view"):
            t.view(2)._version
    with rec.raises("Inference tensors do not track version counter", name="outside"):
        t._version
    x = T.ones(2)
    with T.inference_mode():
        rec("a normal tensor's view", x.view(2)._version)
        rec("matmul squeezed", T.matmul(T.ones(3), T.ones(3, 2)))


# --- node names ---------------------------------------------------------------------------

def _chain(node, depth=0):
    if node is None or depth > 4:
        return None
    return (node.name(), tuple(_chain(n, depth + 1) for n, _ in node.next_functions))


def case_linear_records_addmm(T, rec):
    F = T.nn.functional
    w = T.ones(3, 4, requires_grad=True)
    b = T.ones(3, requires_grad=True)
    for name, x, bias in (("2-d", T.ones(2, 4), b), ("2-d input requires grad",
                                                     T.ones(2, 4, requires_grad=True), b),
                          ("1-d", T.ones(4), b), ("3-d", T.ones(5, 2, 4), b),
                          ("3-d not contiguous", T.ones(2, 5, 4).transpose(0, 1), b),
                          ("4-d", T.ones(1, 5, 2, 4), b), ("no bias", T.ones(2, 4), None),
                          ("constant bias", T.ones(2, 4), T.ones(3))):
        y = F.linear(x, w, bias)
        rec(name, _chain(y.grad_fn))
        y.sum().backward()
        rec(name + ": grads", (w.grad, b.grad))
        w.grad = b.grad = None


def case_addmm(T, rec):
    a = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    m = T.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -2.0]], requires_grad=True)
    c = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = T.addmm(c, a, m, beta=0.5, alpha=2)
    rec("y", y)
    rec("node", _chain(y.grad_fn))
    rec("saved", (y.grad_fn._saved_alpha, y.grad_fn._saved_beta, y.grad_fn._saved_mat1,
                  y.grad_fn._saved_mat2, y.grad_fn._saved_mat1_sym_sizes))
    (y * T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
    rec("grads", (a.grad, m.grad, c.grad))
    rec("method", c.addmm(a, m))
    with rec.raises("mat1 and mat2 shapes cannot be multiplied", name="shapes"):
        T.addmm(c[:2], a, m.t())
    with rec.raises("The expanded size of the tensor", name="bias"):
        T.addmm(c, a, a)
    with rec.raises("mat1 must be a matrix", name="1-d"):
        T.addmm(c, c, m)


def case_setitem_over_everything_writes_the_tensor_itself(T, rec):
    """PyTorch makes no view for x[:] or x[...]: it runs fill_ (FillBackward3) or copy_
    (CopyBackwards) on x itself."""
    x = T.ones(3, 3, requires_grad=True)
    keys = {"[:]": slice(None), "[0:3]": slice(0, 3), "[0:5]": slice(0, 5),
            "[:, :]": (slice(None), slice(None)), "[...]": Ellipsis,
            "[..., :]": (Ellipsis, slice(None)), "[:, 0]": (slice(None), 0), "[0]": 0,
            "[None]": None, "[True]": True}
    for label, key in keys.items():
        for value_label, value in (("0", 0), ("row", T.ones(3)), ("same shape", T.ones(3, 3)),
                                   ("0-dim", T.tensor(1.0)),
                                   ("requires grad", T.tensor(2.0, requires_grad=True))):
            y = x * 2
            try:
                y[key] = value
            except RuntimeError as error:             # a value too big for x[0]
                rec(f"{label} = {value_label}", ("refused", str(error)[:40]))
                continue
            rec(f"{label} = {value_label}",
                (y.grad_fn.name(), [n is None or n.name() for n, _ in y.grad_fn.next_functions]))
    v = T.ones(3, requires_grad=True)
    y = x * 2
    y[:] = v
    (y * T.arange(9.0).view(3, 3)).sum().backward()
    rec("grads", (x.grad, v.grad))
    with rec.raises("a leaf Variable that requires grad", name="leaf [:]"):
        x[:] = 0


def case_setitem_values_refused(T, rec):
    x = T.ones(3, 3)
    for label, value in (("str", "a"), ("None", None), ("list", [1.0, 2.0, 3.0]),
                         ("tuple", (1, 2, 3))):
        for key in (slice(None), 0, (slice(None), 0)):
            with rec.raises("can't assign a", name=f"{label} at {key}"):
                x[key] = value
    for key in (slice(None), 0, (slice(None), 0)):
        with rec.raises("The expanded size of the tensor", name=f"shape at {key}"):
            x[key] = T.ones(2)
        with rec.raises("the number of sizes provided", name=f"dims at {key}"):
            x[key] = T.ones(2, 1, 3)
    with rec.raises("cannot be broadcast to indexing result", name="index_put"):
        x[T.tensor([0, 1])] = T.ones(2)
    x[0] = T.ones(1, 1, 3) * 2
    x[:, 1] = 7
    x[...] = x * 2
    rec("x", x)


# --- messages -----------------------------------------------------------------------------

def case_version_counter_hint_names_check_nan(T, rec):
    a = T.ones(3, requires_grad=True)
    c = a.sigmoid()
    c.mul_(2)
    with rec.raises("set_detect_anomaly(True, check_nan=False).", name="error"):
        c.sum().backward()


def case_functional_v_none_messages(T, rec):
    AF = T.autograd.functional
    x = T.ones(3)
    with rec.raises("can only be None if the user-provided function returns a single Tensor "
                    "with a single element", name="vjp"):
        AF.vjp(lambda t: t * 2, x)
    for fn in (AF.jvp, AF.vhp, AF.hvp):
        with rec.raises("can only be None if the input to the user-provided function is a "
                        "single Tensor with a single element", name=fn.__name__):
            fn(lambda t: (t * t).sum(), x)
    with rec.raises("v has invalid size: should be", name="size"):
        AF.vjp(lambda t: t * 2, x, T.ones(2))
    with rec.raises("v is a tuple of invalid length", name="length"):
        AF.jvp(lambda a, b: a * b, (x, x), (x,))
    rec("scalar vjp", AF.vjp(lambda t: (t * t).sum(), T.tensor([1.0, 2.0])))


def case_functional_jacobian_strict_messages(T, rec):
    AF = T.autograd.functional
    x = T.ones(3)
    with rec.raises("Output 0 of the user-provided function does not require gradients",
                    name="constant"):
        AF.jacobian(lambda t: T.ones(3), x, strict=True)
    with rec.raises("Output 0 of the user-provided function does not require gradients",
                    name="detached"):
        AF.jacobian(lambda t: t.detach(), x, strict=True)
    with rec.raises("Output 1 of the user-provided function is independent of input 0",
                    name="one output independent"):
        AF.jacobian(lambda a, b: (a * b, b * 2), (x, x), strict=True)
    rec("not strict", AF.jacobian(lambda t: t * 0 + T.ones(3), x))
    with rec.raises("The output of the user-provided function is independent of input 1",
                    name="vjp"):
        AF.vjp(lambda a, b: (a * 2).sum(), (x, x), strict=True)


def case_functional_forward_mode_jacobian(T, rec):
    AF = T.autograd.functional
    x = T.tensor([1.0, 2.0])
    rec("one", AF.jacobian(lambda t: t ** 2, x, strategy="forward-mode", vectorize=True))
    rec("pairs", AF.jacobian(lambda a, b: (a * b, a + b), (x, T.ones(2)),
                             strategy="forward-mode", vectorize=True))
    rec("hessian", AF.hessian(lambda t: (t ** 3).sum(), x, vectorize=True))


# --- names that real code uses ------------------------------------------------------------

def case_legacy_tensor_types(T, rec):
    rec("FloatTensor(data)", T.FloatTensor([1, 2]))
    rec("LongTensor(data)", T.LongTensor([1.7, 2.2]))
    rec("DoubleTensor", T.DoubleTensor([[1]]))
    rec("ByteTensor", T.ByteTensor([1, 0]))
    rec("BoolTensor", T.BoolTensor([True, False]))
    rec("IntTensor", T.IntTensor([3]))
    rec("FloatTensor(sizes)", tuple(T.FloatTensor(2, 3).shape))
    rec("FloatTensor(Size)", tuple(T.FloatTensor(T.Size([4])).shape))
    rec("FloatTensor()", tuple(T.FloatTensor().shape))
    rec("dtype", str(T.LongTensor.dtype).replace("minigrad", "torch"))
    x = T.ones(2)
    rec("isinstance", (isinstance(x, T.FloatTensor), isinstance(x, T.LongTensor),
                       isinstance(x.long(), T.LongTensor), isinstance(x, T.cuda.FloatTensor)))
    rec("type()", (x.type(), x.long().type(), x.double().type()))
    rec("type(class)", x.type(T.LongTensor))
    rec("type(name)", x.type("torch.DoubleTensor"))
    rec("type(dtype)", x.type(T.float64))
    with rec.raises("invalid type", name="type(bad name)"):
        x.type("torch.FooTensor")
    rec("FloatTensor requires grad", T.FloatTensor([1.0, 2.0]).requires_grad_())
    with rec.raises("expected", name="LongTensor(a float tensor)"):
        T.LongTensor(x)


def case_legacy_new(T, rec):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x.new(x)
    rec("new(x)", (y, y.requires_grad, y.grad_fn))
    rec("new(data)", x.new([5, 6]))
    rec("new(tuple)", x.new((1, 2)))
    rec("new(sizes)", tuple(x.new(2, 3).shape))
    rec("new()", tuple(x.new().shape))
    c = T.ones(2)
    d = c.new(c)
    d[0] = 5
    rec("shares data", (c, c._version))

    class GradMultiply(T.autograd.Function):         # fairseq's: forward returns x.new(x)
        @staticmethod
        def forward(ctx, x, scale):
            ctx.scale = scale
            return x.new(x)

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.scale, None

    w = T.tensor([1.0, 2.0], requires_grad=True)
    GradMultiply.apply(w * 3, 0.5).sum().backward()
    rec("GradMultiply", w.grad)


def case_variable_volatile(T, rec):
    v = T.autograd.Variable(T.ones(2), volatile=True)
    rec("volatile", v.requires_grad)
    with rec.raises("Variable data has to be a tensor", name="a list"):
        T.autograd.Variable([1, 2])


def case_index_add(T, rec):
    x = T.zeros(5, 3, requires_grad=True)
    s = T.arange(9.0).view(3, 3).requires_grad_()
    y = x.index_add(0, T.tensor([0, 4, 0]), s, alpha=2)
    rec("y", y)
    rec("node", y.grad_fn)
    (y * T.arange(15.0).view(5, 3)).sum().backward()
    rec("grads", (x.grad, s.grad))
    z = T.zeros(5, 3)
    z.index_add_(0, T.tensor([0, 4, 2]), T.ones(3, 3))
    rec("index_add_", z)
    rec("function", T.index_add(T.zeros(3), 0, T.tensor([0, 0]), T.tensor([1.0, 2.0])))
    w = T.zeros(5, 3, requires_grad=True) * 1
    w.index_add_(1, T.tensor([2]), T.ones(5, 1))
    rec("in place node", w.grad_fn)
    for name, args in (("float index", (0, T.tensor([0.0, 1.0]), T.ones(2, 3))),
                       ("2-d index", (0, T.tensor([[0, 1]]), T.ones(2, 3))),
                       ("count", (0, T.tensor([0, 1]), T.ones(3, 3))),
                       ("bounds", (0, T.tensor([0, 9]), T.ones(2, 3))),
                       ("dtype", (0, T.tensor([0, 1]), T.ones(2, 3, dtype=T.float64)))):
        with rec.raises(name=name):
            T.zeros(5, 3).index_add(*args)


def case_hardtanh_and_relu6(T, rec):
    F = T.nn.functional
    x = T.tensor([-2.0, -1.0, 0.5, 1.0, 3.0, 7.0], requires_grad=True)
    y = F.hardtanh(x)
    rec("hardtanh", y)
    rec("saved", (y.grad_fn._saved_min_val, y.grad_fn._saved_max_val, y.grad_fn._saved_self))
    y.sum().backward()
    rec("grad", x.grad)
    rec("bounds", F.hardtanh(x, -1.5, 2.0))
    rec("relu6", F.relu6(x))
    z = x * 1
    F.hardtanh(z, inplace=True)
    rec("in place", z)
    z = x * 1
    F.hardtanh_(z, 0.0, 2.0)
    rec("hardtanh_", z)
    rec("ints", F.hardtanh(T.tensor([1, 5]), 0, 3))
    with rec.raises("min_val cannot be greater than max_val", name="bad bounds"):
        F.hardtanh(x, 2.0, 1.0)
    a = T.tensor([0.0, 4.0], requires_grad=True)
    F.hardtanh(a - 0.0, 0.0, 1.0).sqrt().sum().backward()
    rec("inf gradient outside", a.grad)


def case_grad_only_inputs_and_dict_inputs(T, rec):
    import warnings
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0], requires_grad=True)
    rec("only_inputs", T.autograd.grad((a * 2).sum(), a, only_inputs=True))
    rec("positional", T.autograd.grad((a * a).sum(), [a], None, None, True, True))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        T.autograd.grad((a * 2).sum(), a, only_inputs=False)
    rec("warns", [str(w.message)[:40] for w in caught])
    found = T.autograd.grad((a * b).sum(), {"a": a, "b": b})
    rec("dict", sorted(found.items()))


def case_scatter(T, rec):
    x = T.zeros(3, 4, requires_grad=True)
    src = T.arange(1.0, 5.0).view(2, 2).requires_grad_()
    idx = T.tensor([[0, 1], [2, 0]])
    y = x.scatter(1, idx, src)
    rec("y", (y, y.grad_fn))
    (y * T.arange(12.0).view(3, 4)).sum().backward()
    rec("grads", (x.grad, src.grad))
    rec("value", (x.scatter(0, idx, 5.0), x.scatter(0, idx, 5.0).grad_fn))
    rec("add", T.scatter_add(T.zeros(3), 0, T.tensor([0, 0, 2]), T.ones(3)))
    z = T.zeros(2, 3)
    z.scatter_(1, T.tensor([[2], [0]]), 1)
    rec("scatter_", z)
    w = T.zeros(2, 3, requires_grad=True) * 1
    w.scatter_add_(1, T.tensor([[2], [0]]), T.ones(2, 1))
    rec("in place node", w.grad_fn)
    rec("reduce add", x.detach().scatter(1, idx, 2.5, reduce="add"))
    big = T.arange(1.0, 13.0).view(3, 4).requires_grad_()
    with rec.raises("invalid gradient at index 1", name="src larger than index"):
        x.scatter(1, idx, big).sum().backward()
    for name, args in (("float index", (1, idx.float(), src)), ("dims", (1, T.tensor([0, 1]), src)),
                       ("bounds", (1, T.tensor([[5]]), src)), ("dtype", (1, idx, src.double())),
                       ("sizes", (1, T.ones(4, 5, dtype=T.long), src))):
        with rec.raises(name=name):
            x.detach().scatter(*args)


def case_optimizer_arithmetic(T, rec):
    """The in-place steps of an Adam written by hand, and their out-of-place forms."""
    p = T.tensor([1.0, -2.0, 3.0], requires_grad=True)
    m, v = T.zeros(3), T.zeros(3)
    for step in range(1, 4):
        p.grad = None
        (p ** 2).sum().backward()
        with T.no_grad():
            m.mul_(0.9).add_(p.grad, alpha=0.1)
            v.mul_(0.999).addcmul_(p.grad, p.grad, value=0.001)
            denom = (v / (1 - 0.999 ** step)).sqrt().add_(1e-8)
            p.addcdiv_(m, denom, value=-0.1 / (1 - 0.9 ** step))
    rec("p", p)
    ema = T.zeros(3)
    ema.lerp_(p.detach(), 0.1)
    rec("ema", ema)
    a = T.ones(2, requires_grad=True)
    b = T.tensor([2.0, 3.0], requires_grad=True)
    c = T.tensor([4.0, 5.0], requires_grad=True)
    for name, y in (("addcmul", T.addcmul(a, b, c, value=0.5)), ("addcdiv", a.addcdiv(b, c)),
                    ("lerp", T.lerp(a, b, 0.3)), ("lerp tensor", a.lerp(b, c))):
        a.grad = b.grad = c.grad = None
        y.sum().backward()
        rec(name, (y, y.grad_fn, a.grad, b.grad, c.grad))
    with rec.raises("Integer division with addcdiv", name="integer addcdiv"):
        T.ones(2).addcdiv(T.tensor([1, 2]), T.tensor([3, 4]))


def case_einsum(T, rec):
    a = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    b = T.tensor([[1.0, 0.5], [0.0, 2.0], [1.0, -1.0]], requires_grad=True)
    for equation, operands in (("ij,jk->ik", (a, b)), ("ij,jk", (a, b)), ("ij->ji", (a,)),
                               ("ij->", (a,)), ("ij,ij->i", (a, a)), ("i,j->ij", (a[0], b[:, 0])),
                               ("...j,jk->...k", (a, b))):
        a.grad = b.grad = None
        y = T.einsum(equation, *operands)
        (y * y).sum().backward()
        rec(equation, (y, a.grad, b.grad))
    rec("list", T.einsum("ij,jk->ik", [a, b]))


def case_logic_functions(T, rec):
    x = T.tensor([1.0, 2.0, 3.0])
    y = T.tensor([1.0, 2.5, 3.0])
    rec("compare", (T.eq(x, y), T.ne(x, 2), T.lt(x, y), T.le(x, y), T.gt(x, 2), T.ge(x, y),
                    T.greater(x, 1.5), T.less_equal(x, y), T.not_equal(x, y)))
    rec("logical", (T.logical_and(x > 1, x < 3), T.logical_or(x > 2, x < 2),
                    T.logical_xor(x > 1, x > 2), T.logical_not(x > 1)))
    rec("bitwise", (T.bitwise_xor(T.tensor([1, 5, 11]), T.tensor([2, 7, 10])),
                    T.bitwise_and(T.tensor([3]), T.tensor([5])), T.bitwise_not(x > 2)))
    rec("isclose", (T.isclose(x, y), x.isclose(y + 1e-9), T.isclose(x, y, atol=0.6)))
    rec("methods", (x.greater(1.5), x.logical_and(x > 2)))


def case_sampling_and_types(T, rec):
    m = T.zeros(2, requires_grad=True)
    s = T.ones(2, requires_grad=True)
    y = T.normal(m, s)
    (y * 3).sum().backward()
    rec("normal", (y.grad_fn, m.grad, s.grad, T.normal(m, 1.0).grad_fn, T.normal(0.5, s).grad_fn))
    rec("shapes", (tuple(T.normal(2, 3, size=(1, 4)).shape), T.normal(0.0, 1.0, (2,)).dtype == T.float32))
    for name, args in (("two numbers", (0, 1)), ("negative std", (0, -1, (2,))),
                       ("negative tensor std", (T.zeros(2), -1.0))):
        with rec.raises(name=name):
            T.normal(*args)
    rec("finfo", (T.finfo(T.float32).eps, T.finfo(T.float64).max, T.finfo().tiny,
                  repr(T.finfo(T.float16)), T.finfo(T.float32).dtype))
    rec("iinfo", (T.iinfo(T.int64).max, T.iinfo(T.uint8).min, repr(T.iinfo(T.int32))))
    with rec.raises("requires a floating point input type", name="finfo of an int"):
        T.finfo(T.int64)


def case_parameter(T, rec):
    p = T.nn.Parameter(T.ones(2) * 0.5)
    rec("repr", repr(p))
    rec("facts", (p.is_leaf, p.requires_grad, type(p * 2).__name__, isinstance(p, T.Tensor),
                  type(p.detach()).__name__))
    (p * p).sum().backward()
    rec("grad", p.grad)
    q = T.nn.Parameter(T.ones(2), requires_grad=False)
    rec("no grad", (repr(q), q.requires_grad))


def case_printoptions(T, rec):
    try:
        T.set_printoptions(precision=2)
        rec("precision", repr(T.tensor([1.2345, 2.0])))
        T.set_printoptions(sci_mode=False)
        rec("sci off", repr(T.tensor([1e-5, 1.0])))
        T.set_printoptions(sci_mode=True)
        rec("sci on", repr(T.tensor([1.5, 2.0])))
        T.set_printoptions(threshold=5, edgeitems=1)
        rec("summary", repr(T.arange(10.0)))
    finally:
        T.set_printoptions(profile="default")
    rec("default", repr(T.tensor([1.2345, 1e-5])))


def case_selecting(T, rec):
    x = T.tensor([[1.0, -2.0], [3.0, -4.0]], requires_grad=True)
    s = x.masked_select(x > 0)
    s.sum().backward()
    rec("masked_select", (s, s.grad_fn, x.grad))
    rec("nonzero", (T.nonzero(x > 0), x.nonzero(as_tuple=True)))
    rec("repeat_interleave", (x.repeat_interleave(2), T.repeat_interleave(x, 2, dim=0)))
    for name, y in (("by a number", x.repeat_interleave(2, dim=1)),
                    ("by a tensor", x.repeat_interleave(T.tensor([1, 2]), dim=0))):
        rec(f"repeat_interleave {name}", (y.grad_fn, y.grad_fn.next_functions[0][0]))
    rec("unique", (T.unique(T.tensor([3, 1, 2, 1]), return_inverse=True, return_counts=True),
                   T.tensor([2.0, 1.0, 2.0]).unique()))
    u = T.unique(x)
    with rec.raises("the derivative for '_unique2' is not implemented", name="unique backward"):
        u.sum().backward()


def case_more_math(T, rec):
    x = T.tensor([1.0, 2.0, 0.0, 4.0], requires_grad=True)
    for name, fn in (("cumprod", lambda: T.cumprod(x, 0)), ("rsqrt", lambda: T.rsqrt(x + 1)),
                     ("nan_to_num", lambda: T.nan_to_num(x.log())), ("clip", lambda: T.clip(x, 1, 3)),
                     ("cross", lambda: T.linalg.cross(x[:3], T.tensor([0.0, 1.0, 0.0]))),
                     ("Tensor.cross", lambda: x[:3].cross(T.tensor([0.0, 1.0, 0.0]), dim=0)),
                     ("vector_norm", lambda: T.linalg.vector_norm(x)),
                     ("linalg.norm", lambda: T.linalg.norm(x.view(2, 2)))):
        x.grad = None
        y = fn()
        y.sum().backward()
        rec(name, (y, y.grad_fn, x.grad))
    rec("broadcast", (T.broadcast_to(T.ones(3), (2, 3)), [tuple(t.shape) for t in
                                                          T.broadcast_tensors(T.ones(2, 1), T.ones(3))]))
    rec("aliases", (x.ndimension(), tuple(x.reshape_as(T.ones(2, 2)).shape),
                    tuple(x.new_empty(3).shape)))
    y = T.cumprod(x, axis=0)                     # numpy's name, as diffusion schedules write it
    rec("cumprod saved", (y, y.grad_fn._saved_dim, y.grad_fn._saved_self,
                          y.grad_fn._saved_result, T.rsqrt(x + 1).grad_fn._saved_result))


def case_more_functional(T, rec):
    F = T.nn.functional
    x = T.tensor([[-2.0, 0.5, 3.0], [1.0, -1.0, 2.0]], requires_grad=True)
    t = T.tensor([[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]])
    for name, fn in (("logsigmoid", lambda: F.logsigmoid(x)), ("elu", lambda: F.elu(x, 0.5)),
                     ("smooth_l1", lambda: F.smooth_l1_loss(x, t)),
                     ("smooth_l1 beta", lambda: F.smooth_l1_loss(x, t, reduction="sum", beta=2.0)),
                     ("normalize", lambda: F.normalize(x)),
                     ("normalize dim 0 p 1", lambda: F.normalize(x, p=1, dim=0)),
                     ("cosine_similarity", lambda: F.cosine_similarity(x, t))):
        x.grad = None
        y = fn()
        y.sum().backward()
        rec(name, (y, y.grad_fn, x.grad))
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        F.log_softmax(x)
    rec("implicit dim", [str(w.message)[:40] for w in caught])


def case_autograd_details_real_code_meets(T, rec):
    class Bad(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, k, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return None, None, T.ones(5)

    x, y = T.ones(2, requires_grad=True), T.ones(2, requires_grad=True)
    # the index counts the tensor inputs (PyTorch's edges): y is input 1, not argument 2
    with rec.raises("returned an invalid gradient at index 1", name="gradient index"):
        Bad.apply(x, 3, y).sum().backward()
    seen = []
    outputs = (x.exp(), x.sin())
    for saved in (outputs[0].grad_fn._raw_saved_result, outputs[1].grad_fn._raw_saved_self):
        saved.register_hooks(lambda t: seen.append((t.requires_grad, t.grad_fn is None)) or t,
                             lambda t: t)
    rec("what a pack hook is given", seen)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Bad()
        T.nn.functional.softmax(T.ones(2, 3))
    rec("warnings", [(w.category.__name__, str(w.message).split(" minigrad hint")[0][-90:],
                      w.filename == __file__) for w in caught])
    rec("anomaly off", (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with T.autograd.detect_anomaly(check_nan=False):
            rec("anomaly on", (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
    rec("Tensor's module", (T.Tensor.__module__ == T.__name__, type(x).__name__))


def case_inplace_functions_and_amp_decorators(T, rec):
    x = T.tensor([0.5, -2.0, 3.0])
    rec("in-place functions", [f(x.clone()) for f in (T.sin_, T.abs_, T.exp_, T.zero_, T.relu_,
                                                      T.sigmoid_, T.neg_)])
    rec("clamp_", (T.clamp_(x.clone(), -1, 1), T.clamp_min_(x.clone(), 0),
                   T.clamp_max_(x.clone(), 1), T.fill_(x.clone(), 2)))
    a = T.ones(2, requires_grad=True) * 2
    T.detach_(a)
    rec("detach_", (a.requires_grad, a.grad_fn))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")

        class Exp(T.autograd.Function):
            @staticmethod
            @T.amp.custom_fwd(device_type="cpu", cast_inputs=T.float32)
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x.exp()

            @staticmethod
            @T.amp.custom_bwd(device_type="cpu")
            def backward(ctx, g):
                return g * ctx.saved_tensors[0].exp()

        class Cube(T.autograd.Function):               # the decorators' older home
            @staticmethod
            @T.cuda.amp.custom_fwd
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x ** 3

            @staticmethod
            @T.cuda.amp.custom_bwd
            def backward(ctx, g):
                return g * 3 * ctx.saved_tensors[0] ** 2

    rec("deprecated", [(w.category.__name__, str(w.message)) for w in caught])
    for Function in (Exp, Cube):
        z = T.tensor([0.0, 1.0], requires_grad=True)
        Function.apply(z).sum().backward()
        rec(Function.__name__, z.grad)
    rec("empty_cache", T.cuda.empty_cache())
    with rec.raises("Expected `device_type` of type `str`", name="device_type"):
        T.amp.custom_fwd(device_type=0)


def case_div_rounding_mode_and_mean_dtype(T, rec):
    x = T.tensor([[2.5, -3.5], [7.0, 1.0]], requires_grad=True)
    y = T.tensor([2.0, -2.0], requires_grad=True)
    for mode in ("floor", "trunc"):
        x.grad = y.grad = None
        z = T.div(x, y, rounding_mode=mode)
        z.sum().backward()
        rec(mode, (z, z.grad_fn, x.grad, y.grad, z.grad_fn._saved_rounding_mode))
    rec("by a number", (T.div(x, 2, rounding_mode="floor"), x.div(-2, rounding_mode="trunc")))
    a, b = T.tensor([5, -5, 7, -7]), T.tensor([2, 2, -3, -3])
    rec("integers", (a.div(b, rounding_mode="trunc"), a.div(b, rounding_mode="floor"), a.div(2),
                     T.div(7, b, rounding_mode="floor")))
    with rec.raises("expected rounding_mode to be one of None, 'trunc', or 'floor'", name="mode"):
        T.div(x, y, rounding_mode="round")
    rec("mean dtype", (x.mean(dtype=T.float64), T.mean(x, 1, dtype=T.float64),
                       T.tensor([1, 2]).mean(dtype=T.float32)))
    with rec.raises("Optional dtype must be either a floating point", name="integer dtype"):
        T.tensor([1, 2]).mean(dtype=T.int64)
    x.grad = None
    x.mean(dtype=T.float64).backward()
    rec("mean dtype grad", (x.grad, x.grad.dtype))
    x.grad = None
    z = x * 1
    z.div_(y, rounding_mode="trunc")
    z.sum().backward()
    rec("div_", (z, z.grad_fn, z._version, x.grad))
    a.div_(2, rounding_mode="floor")
    rec("div_ of integers", a)
    with rec.raises("can't be cast to the desired output type Long", name="div_ by a float"):
        a.div_(2.5, rounding_mode="floor")


def case_autograd_grad_and_backward_arguments(T, rec):
    x = T.ones(2, requires_grad=True)
    y = (x * 2).sum()
    with rec.raises("Expected output to be a torch.Tensor", name="an output that is a str"):
        T.autograd.grad("abc", x, T.ones(2))
    with rec.raises("Expected output to be a torch.Tensor", name="an int among the outputs"):
        T.autograd.grad([y, 3], x)
    with rec.raises("all inputs have to be Tensors or GradientEdges, but got int",
                    name="an int among the inputs"):
        T.autograd.grad(y, [x, 3])
    with rec.raises("but got numpy.ndarray", name="numpy inputs"):
        T.autograd.grad(y, [x, np.ones(2)])
    with rec.raises("'NoneType' object is not iterable", name="inputs None"):
        T.autograd.grad(y, None)
    for flag, value, words in (("allow_unused", "abc", "'str' object cannot be interpreted"),
                               ("allow_unused", -1, "unsigned byte integer is less"),
                               ("retain_graph", 1.5, "'float' object cannot be interpreted"),
                               ("create_graph", 300, "unsigned byte integer is greater")):
        with rec.raises(words, name=f"{flag}={value!r}"):
            T.autograd.grad(y, x, **{flag: value})
    rec("flags that are integers", T.autograd.grad((x * 2).sum(), x, retain_graph=1,
                                                   create_graph=0, allow_unused=255))
    with rec.raises("Expected output to be a torch.Tensor", name="backward of a str"):
        T.autograd.backward("abc")
    with rec.raises("'int' object is not iterable", name="backward of an int"):
        T.autograd.backward(3)
    with rec.raises("'str' object cannot be interpreted", name="backward's retain_graph"):
        (x * 2).sum().backward(retain_graph="yes")
    with rec.raises("all inputs have to be Tensors or GradientEdges", name="backward's inputs"):
        T.autograd.backward((x * 2).sum(), inputs=[3])


def case_clamp_inplace_with_tensor_bounds(T, rec):
    x = T.tensor([1.0, -2.0, 3.0], requires_grad=True)
    low, high = T.zeros(3, requires_grad=True), T.tensor([2.0, 2.0, 4.0], requires_grad=True)
    y = x * 1
    y.clamp_(low, high)
    y.sum().backward()
    rec("clamp_(low, high)", (y, y.grad_fn, y._version, x.grad, low.grad, high.grad))
    rec("max only", T.clamp_(x.detach().clone(), max=T.tensor(0.5)))
    with rec.raises("doesn't match the broadcast shape", name="a bound of a larger shape"):
        (x * 1).clamp_(T.zeros(2, 3))
    with rec.raises("can't be cast to the desired output type Long", name="float bounds"):
        T.tensor([1, 2]).clamp_(T.tensor([0.5, 0.5]))
