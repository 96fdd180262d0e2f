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


# --- the mistakes of a learner: wrong calls, wrong types, misuse of the autograd API ---

def case_backward_twice_fancy_index(T, rec):
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x[T.tensor([0, 2])].sum()
    y.backward()
    with rec.raises("Trying to backward through the graph a second time", name="second"):
        y.backward()

def case_backward_twice_where(T, rec):
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = T.where(x > 1, x, T.zeros(3)).sum()
    y.backward()
    with rec.raises("Trying to backward through the graph a second time", name="second"):
        y.backward()

def case_backward_inputs_empty(T, rec):
    x = T.ones(3, requires_grad=True)
    with rec.raises("cannot be empty", name="inputs=[]"):
        (x * 2).sum().backward(inputs=[])

def case_grad_inputs_empty(T, rec):
    x = T.ones(3, requires_grad=True)
    with rec.raises("cannot be empty", name="grad(y, [])"):
        T.autograd.grad((x * 2).sum(), [])

def case_backward_inputs_not_requiring_grad(T, rec):
    x = T.tensor([1.0], requires_grad=True); c = T.tensor([2.0])
    with rec.raises("can't retain_grad on Tensor that has requires_grad=False", name="inputs=[c]"):
        (x * c).sum().backward(inputs=[c])

def case_backward_gradient_as_list(T, rec):
    x = T.ones(3, requires_grad=True)
    with rec.raises("gradients can be either Tensors or None", name="list gradient"):
        (x * 2).backward([1.0, 1.0, 1.0])

def case_grad_non_tensor_args(T, rec):
    x = T.tensor(2.0, requires_grad=True)
    with rec.raises(name="inputs=2.0"):
        T.autograd.grad(x * 2, 2.0)
    with rec.raises(name="outputs=2.0"):
        T.autograd.grad(2.0, x)

def case_materialize_with_allow_unused_false(T, rec):
    x = T.tensor([1.0], requires_grad=True); z = T.tensor([2.0], requires_grad=True)
    with rec.raises("Expected allow_unused to be True or not passed when materialize_grads=True", name="e"):
        T.autograd.grad((x * 3).sum(), [x, z], materialize_grads=True, allow_unused=False)

def case_data_set_to_int(T, rec):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with rec.raises("data set to a tensor that requires gradients must be floating point", name="x.data = int"):
        x.data = T.tensor([5, 6])

def case_nonleaf_requires_grad_attr_true(T, rec):
    x = T.tensor([1.0], requires_grad=True)
    y = x * 2
    with rec.raises("you can only change requires_grad flags of leaf variables", name="y.requires_grad = True"):
        y.requires_grad = True

def case_requires_grad_false_before_backward(T, rec):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    x.requires_grad_(False)
    y.backward()
    rec("x.grad", x.grad)

def case_requires_grad_int_kwarg(T, rec):
    with rec.raises("argument 'requires_grad' must be bool, not int", name="requires_grad=1"):
        T.tensor([1.0], requires_grad=1)

def case_int_requires_grad_attr_message(T, rec):
    with rec.raises("only Tensors of floating point and complex dtype can require gradients", name="i.requires_grad = True"):
        T.tensor([1, 2]).requires_grad = True

def case_numpy_under_no_grad(T, rec):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with T.no_grad():
        with rec.raises(name="x.numpy() in no_grad"):
            rec("a", x.numpy())

def case_numpy_force(T, rec):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with rec.raises(name="numpy(force=True)"):
        rec("a", x.numpy(force=True))

def case_numpy_ufunc_on_tensor(T, rec):
    with rec.raises(name="np.exp(plain)"):
        rec("plain", np.asarray(np.exp(T.tensor([1.0, 2.0]))))
    with rec.raises("Can't call numpy() on Tensor that requires grad", name="np.exp(requires_grad)"):
        np.exp(T.tensor([1.0, 2.0], requires_grad=True))

def case_tensor_times_ndarray(T, rec):
    x = T.ones(2, requires_grad=True)
    with rec.raises("Can't call numpy() on Tensor that requires grad", name="x * ndarray"):
        x * np.array([1.0, 2.0])

def case_function_instance_call(T, rec):
    class Sq(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x
        @staticmethod
        def backward(ctx, g):
            return g
    with rec.raises("Legacy autograd function with non-static forward method is deprecated", name="Sq()(x)"):
        Sq()(T.ones(2, requires_grad=True))

def case_function_forward_uses_numpy(T, rec):
    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return T.tensor(x.numpy() * 2)
        @staticmethod
        def backward(ctx, g):
            return g * 2
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with rec.raises(name="apply"):
        F.apply(x).sum().backward()
        rec("grad", x.grad)

def case_saved_tensors_inside_forward(T, rec):
    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            rec("len(saved_tensors) in forward", len(ctx.saved_tensors))
            return x * x
        @staticmethod
        def backward(ctx, g):
            return g
    F.apply(T.ones(2, requires_grad=True))

def case_mark_dirty_input_not_returned(T, rec):
    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x * 2
        @staticmethod
        def backward(ctx, g):
            return g * 2
    a = T.ones(2, requires_grad=True) * 1
    with rec.raises("Some elements marked as dirty during the forward method were not returned as output", name="e"):
        F.apply(a)

def case_function_with_vjp_only(T, rec):
    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
        @staticmethod
        def vjp(ctx, g):
            return g * 2
    x = T.tensor([1.0], requires_grad=True)
    with rec.raises(name="backward"):
        F.apply(x).sum().backward()
    rec("grad", x.grad)

def case_node_hook_fills_a_none_slot(T, rec):
    x = T.ones(3, requires_grad=True)
    y = x * 2
    y.grad_fn.register_hook(lambda gi, go: (gi[0], gi[0]))
    with rec.raises("can't replace a None gradient with a non-None value", name="e"):
        y.sum().backward()

def case_node_hook_returns_tensor(T, rec):
    x = T.ones(3, requires_grad=True)
    y = x * 2
    y.grad_fn.register_hook(lambda gi, go: gi[0] * 2)
    with rec.raises("expected tuple, but hook returned 'Tensor'", name="e"):
        y.sum().backward()

def case_post_accumulate_hook_returns_value(T, rec):
    x = T.ones(3, requires_grad=True)
    x.register_post_accumulate_grad_hook(lambda t: t.grad * 5)
    with rec.raises("post accumulate grad hooks should return None", name="e"):
        (x * 2).sum().backward()

def case_bare_no_grad_decorator(T, rec):
    x = T.ones(3, requires_grad=True)
    with rec.raises(name="@no_grad"):
        @T.no_grad
        def f(a):
            return a * 2
        rec("requires_grad", f(x).requires_grad)

def case_inference_tensor_requires_grad_(T, rec):
    with T.inference_mode():
        t = T.ones(3)
    with rec.raises("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed", name="e"):
        t.requires_grad_()

def case_tensor_of_list_of_vectors(T, rec):
    with rec.raises("only one element tensors can be converted to Python scalars", name="e"):
        T.tensor([T.tensor([1.0, 2.0]), T.tensor([3.0, 4.0])])

def case_tensor_of_list_of_str(T, rec):
    with rec.raises("too many dimensions 'str'", name="e"):
        T.tensor(["a", "b"])

def case_as_tensor_dtype_keeps_graph(T, rec):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = T.as_tensor(x, dtype=T.float64)
    rec("requires_grad, is_leaf", (y.requires_grad, y.is_leaf))

def case_legacy_Tensor_sizes(T, rec):
    with rec.raises(name="T.Tensor(2, 3)"):
        rec("shape", tuple(T.Tensor(2, 3).shape))

def case_autograd_Variable(T, rec):
    with rec.raises(name="Variable"):
        v = T.autograd.Variable(T.ones(2), requires_grad=True)
        rec("requires_grad", v.requires_grad)

def case_detach__on_view(T, rec):
    x = T.ones(3, requires_grad=True)
    v = (x * 1)[:2]
    with rec.raises("Can't detach views in-place", name="e"):
        v.detach_()

def case_inplace_on_expanded_nonleaf(T, rec):
    x = T.ones(3, requires_grad=True)
    with rec.raises("more than one element of the written-to tensor refers to a single memory location", name="e"):
        (x * 1).expand(2, 3).add_(1)

def case_no_grad_view_of_leaf_inplace(T, rec):
    x = T.ones(3, requires_grad=True)
    with T.no_grad():
        v = x[0:2]
    with rec.raises("A view was created in no_grad mode and is being modified inplace with grad mode enabled", name="e"):
        v.add_(1)

def case_no_grad_view_of_nonleaf_inplace(T, rec):
    y = T.ones(3, requires_grad=True) * 2
    with T.no_grad():
        v = y[0:2]
    with rec.raises("A view was created in no_grad mode", name="e"):
        v.mul_(2)

def case_missing_inplace_methods(T, rec):
    for m in ["exp_", "log_", "sqrt_", "relu_", "sigmoid_", "tanh_", "pow_", "neg_", "abs_", "sin_", "cos_",
              "t_", "unsqueeze_", "squeeze_", "normal_", "uniform_"]:
        rec(m, hasattr(T.ones(1), m))

def case_functions_given_non_tensor(T, rec):
    for name, f in [("exp(2.0)", lambda: T.exp(2.0)), ("sin(1)", lambda: T.sin(1)),
                    ("sum(list)", lambda: T.sum([1.0, 2.0])), ("tanh(ndarray)", lambda: T.tanh(np.ones(1))),
                    ("matmul(t, list)", lambda: T.matmul(T.ones(2), [1.0, 2.0]))]:
        with rec.raises("must be Tensor", name=name):
            f()

def case_cat_errors(T, rec):
    with rec.raises("Sizes of tensors must match except in dimension 0", name="sizes"):
        T.cat([T.ones(2, 2), T.ones(2, 3)])
    with rec.raises("zero-dimensional tensor (at position 0) cannot be concatenated", name="0-d"):
        T.cat([T.tensor(1.0), T.tensor(2.0)])
    with rec.raises("must be tuple of Tensors, not Tensor", name="cat(a, b)"):
        T.cat(T.ones(2), T.ones(2))

def case_cross_entropy_float_class_target(T, rec):
    logits = T.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    with rec.raises("expected target dtype to be Long or Byte, but got Float", name="e"):
        T.nn.functional.cross_entropy(logits, T.tensor([2.0]))

def case_gradcheck_nothing_requires_grad(T, rec):
    x = T.tensor([1.0, 2.0], dtype=T.float64)
    with rec.raises("gradcheck expects at least one input tensor to require gradient", name="e"):
        T.autograd.gradcheck(lambda a: a * 2, (x,))

def case_mse_of_int_tensors(T, rec):
    with rec.raises(name="mse int"):
        rec("loss", T.nn.functional.mse_loss(T.tensor([1, 2]), T.tensor([1, 3])))

def case_floordiv_tensors(T, rec):
    rec("//", T.tensor([3, -4]) // T.tensor([2, 3]))

def case_rand_randn_int_dtype(T, rec):
    with rec.raises(name="rand long"):
        T.rand(2, dtype=T.int64)
    with rec.raises(name="randn long"):
        T.randn(2, dtype=T.int64)

def case_randint_requires_grad(T, rec):
    with rec.raises("Only Tensors of floating point and complex dtype can require gradients", name="e"):
        T.randint(0, 5, (3,), requires_grad=True)

def case_numpy_style_axis_kwargs(T, rec):
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    with rec.raises(name="sum(axis=0)"):
        rec("sum", x.sum(axis=0))
    with rec.raises(name="mean(axis=1, keepdims=True)"):
        rec("mean", x.mean(axis=1, keepdims=True))

def case_mT_on_1d(T, rec):
    with rec.raises("tensor.mT is only supported on matrices or batches of matrices", name="e"):
        T.ones(3).mT

def case_jacobian_list_inputs(T, rec):
    with rec.raises("The inputs given to jacobian must be either a Tensor or a tuple of Tensors", name="e"):
        T.autograd.functional.jacobian(lambda a: a * 2, [T.tensor([1.0, 2.0])])

def case_hessian_nonscalar_message(T, rec):
    with rec.raises("The Tensor returned by the function given to hessian should contain a single element", name="e"):
        T.autograd.functional.hessian(lambda a: a * a, T.tensor([1.0, 2.0]))

def case_index_0d_message(T, rec):
    with rec.raises("invalid index of a 0-dim tensor", name="e"):
        T.tensor(1.0)[0]


# --- what the fixes above added, checked more widely ------------------------------------

def case_in_place_elementwise_ops(T, rec):
    for name in ("exp_", "log_", "sin_", "cos_", "tanh_", "sigmoid_", "relu_", "sqrt_",
                 "abs_", "neg_", "reciprocal_"):
        x = T.tensor([0.5, 2.0, -1.0], requires_grad=True)
        y = x * 1
        alias = y
        rec(f"{name} returns self", getattr(y, name)() is y)
        rec(f"{name} alias", alias)
        rec(f"{name} node", y.grad_fn.name())
        rec(f"{name} version", y._version)
        y.sum().backward()
        rec(f"{name} grad", x.grad)
        z = T.tensor([0.5, 2.0], requires_grad=True) * 1
        getattr(z, name)()
        z.mul_(2)
        with rec.raises(name=f"{name} then changed"):
            z.sum().backward()
        with rec.raises("leaf Variable", name=f"{name} on a leaf"):
            getattr(T.tensor([1.0], requires_grad=True), name)()
    with rec.raises("can't be cast", name="exp_ of integers"):
        T.tensor([1, 2]).exp_()
    base = T.ones(4, 2)
    base[1].exp_()
    rec("through a view", base)
    w = T.zeros(2, 3, requires_grad=True)
    with T.no_grad():
        w.normal_(0, 0.01)
        w.uniform_(-1, 1)
    rec("initialised leaf", (w.requires_grad, w.is_leaf, bool((w.abs() <= 1).all())))
    h = T.ones(3, requires_grad=True) * 2
    h.uniform_()
    rec("uniform_ node", h.grad_fn.name())
    h.normal_()
    rec("normal_ node", h.grad_fn.name())
    r = T.tensor([1.0, -1.0], requires_grad=True) * 1
    T.nn.functional.relu(r, inplace=True)
    rec("F.relu inplace", r)
    rec("F.relu inplace node", r.grad_fn.name())


def case_floor_division_and_remainder(T, rec):
    rec("ints", T.tensor([3, -4]) // T.tensor([2, 3]))
    rec("floats", T.tensor([3.0, -4.0]) // T.tensor([2.0, 3.0]))
    rec("by a number", T.tensor([3, -4]) // 2)
    rec("by a float", T.tensor([5, 7]) // 2.0)
    rec("reflected", 7 // T.tensor([2, 3]))
    rec("float by zero", T.tensor([3.0, -4.0]) // 0)
    rec("remainder", T.tensor([3.0, -4.0]) % 3)
    rec("reflected remainder", -7 % T.tensor([3]))
    rec("remainder of a float", T.tensor([5, 7]) % 2.5)
    rec("sign of the divisor", T.tensor([5.0]) % T.tensor([-3.0]))
    rec("functions", (T.remainder(T.tensor([5, -7]), 3), T.floor_divide(T.tensor([5, -7]), 3)))
    for name, call in (("//", lambda: T.tensor([3, -4]) // T.tensor([0, 1])),
                       ("%", lambda: T.tensor([3, -4]) % T.tensor([0, 1]))):
        with rec.raises("ZeroDivisionError", name=f"integer {name} by zero"):
            call()
    x = T.tensor([3.0, -4.0], requires_grad=True)
    y = x // 2
    rec("// requires grad", y.requires_grad)
    with rec.raises("floor_divide", name="// backward"):
        y.sum().backward()
    a = T.tensor([5.0, -7.0], requires_grad=True)
    b = T.tensor([3.0, 2.0], requires_grad=True)
    r = a % b
    r.sum().backward()
    rec("% node", r.grad_fn.name())
    rec("% grads", (a.grad, b.grad))
    c = T.tensor([5.0, -7.0], requires_grad=True)
    s = c % 3
    s.sum().backward()
    rec("% number node", s.grad_fn.name())
    rec("% number grad", c.grad)


def case_views_changed_in_place(T, rec):
    x = T.ones(3, requires_grad=True)
    with T.no_grad():
        v = x[0:2]
    with rec.raises("created in no_grad mode", name="no_grad view of a leaf"):
        v.add_(1)
    y = T.ones(3, requires_grad=True) * 2
    with T.no_grad():
        w = y[0:2]
        w.mul_(2)
    rec("inside no_grad", w)
    with rec.raises("created in no_grad mode", name="outside"):
        w.mul_(2)
    y2 = T.ones(3, requires_grad=True) * 1
    with T.no_grad():
        flat = y2.view(3)
    with rec.raises("created in no_grad mode", name="view()"):
        flat.add_(1)
    with rec.raises("single memory location", name="expanded, with grad"):
        (T.ones(3, requires_grad=True) * 1).expand(2, 3).add_(1)
    with rec.raises("single memory location", name="expanded"):
        T.ones(3).expand(2, 3).add_(1)
    z = T.ones(3, requires_grad=True) * 2
    z[0:2].mul_(2)
    rec("a view in grad mode", z)
    with rec.raises("Can't detach views in-place", name="detach_ of a view"):
        T.ones(3)[:2].detach_()


def case_node_hooks_return_values(T, rec):
    hooks = [("a None slot filled", lambda gi, go: (gi[0], gi[0]), False),
             ("a tensor", lambda gi, go: gi[0] * 2, False),
             ("a list", lambda gi, go: [gi[0] * 2, None], False),
             ("too few", lambda gi, go: (gi[0] * 2,), False),
             ("other size", lambda gi, go: (gi[0][:2], None), False),
             ("other dtype", lambda gi, go: (gi[0].double(), None), False),
             ("all None", lambda gi, go: (None, None), False),
             ("pre: a tensor", lambda go: go[0] * 2, True),
             ("pre: a tuple", lambda go: (go[0] * 2,), True),
             ("pre: too many", lambda go: (go[0] * 2, go[0]), True),
             ("pre: a list", lambda go: [go[0] * 2], True)]
    for name, hook, pre in hooks:
        x = T.ones(3, requires_grad=True)
        y = x * 2
        (y.grad_fn.register_prehook if pre else y.grad_fn.register_hook)(hook)
        with rec.raises(name=name):
            y.sum().backward()
            rec(f"{name}: grad", x.grad)


def case_numpy_argument_names(T, rec):
    x = T.tensor([[1.0, 5.0], [3.0, 2.0]])
    for name in ("sum", "mean", "max", "min", "prod", "std", "var", "argmax", "argmin",
                 "any", "all", "amax", "amin", "logsumexp", "cumsum", "softmax",
                 "log_softmax", "squeeze", "unsqueeze"):
        for kwargs in ({"axis": 0}, {"axis": 0, "keepdims": True}, {"dim": 0, "keepdims": True}):
            for form, call in (("method", lambda: getattr(x, name)(**kwargs)),
                               ("function", lambda: getattr(T, name)(x, **kwargs))):
                with rec.raises(name=f"{name} {form} {sorted(kwargs)}"):
                    result = call()
                    rec(f"{name} {form} {sorted(kwargs)} value",
                        result if hasattr(result, "shape") else result[0])


def case_arrays_as_operands(T, rec):
    x = T.tensor([1.0, 2.0])
    a = np.array([1.0, 2.0])
    rec("x * array", x * a)
    rec("x + array", x + a)
    with rec.raises("Can't call numpy() on Tensor that requires grad", name="requires grad"):
        T.tensor([1.0, 2.0], requires_grad=True) * a
    g = T.tensor([1.0, 2.0], requires_grad=True)
    rec("numpy scalar", g * np.float32(2.0))
    rec("legacy Tensor(2, 3)", tuple(T.Tensor(2, 3).shape))
    rec("Tensor(list)", T.Tensor([1, 2]))


def case_old_tutorial_forms(T, rec):
    Variable = T.autograd.Variable
    t = T.ones(2)
    v = Variable(t, requires_grad=True)
    rec("Variable", (v, v.is_leaf, v is t, v.requires_grad))
    rec("plain Variable", (Variable(t).requires_grad, Variable(t) is t))
    rec("Variable of a result", Variable(T.ones(2, requires_grad=True) * 2).requires_grad)
    rec("isinstance", (isinstance(t, Variable), isinstance(3, Variable)))
    (v * 3).sum().backward()
    rec("grad", v.grad)
    with rec.raises("invalid index of a 0-dim tensor", name="loss[0]"):
        T.tensor(1.0)[0]
    with rec.raises("slice() cannot be applied to a 0-dim tensor", name="loss[:]"):
        T.tensor(1.0)[:]
    rec("loss[None]", T.tensor(1.0)[None])
    rec("loss[...]", T.tensor(1.0)[...])

    @T.enable_grad
    def doubled(a):
        return a * 2
    with T.no_grad():
        rec("@enable_grad", doubled(T.ones(1, requires_grad=True)).requires_grad)


def case_numpy_in_backward_and_saved_condition(T, rec):
    modes = []

    class Exp(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            modes.append(T.is_grad_enabled())
            return T.tensor(grad.numpy() * ctx.saved_tensors[0].numpy())
    x = T.tensor([1.0, 2.0], requires_grad=True)
    Exp.apply(x).sum().backward()
    rec("grad", x.grad)
    with rec.raises("Can't call numpy()", name="under create_graph"):
        T.autograd.grad(Exp.apply(x).sum(), x, create_graph=True)
    rec("grad mode in each backward", modes)
    w = T.where(x > 1, x, T.zeros(2))
    rec("_saved_condition", w.grad_fn._saved_condition)
    loss = T.nn.functional.nll_loss(x.view(1, 2), T.tensor([1]))
    rec("_saved_self", loss.grad_fn._saved_self)


def case_constants_and_clip(T, rec):
    rec("constants", (T.pi, T.e, T.inf))
    rec("nan", T.tensor(T.nan).isnan())
    x = T.tensor([1.0, -2.0, 0.5], requires_grad=True)
    y = x.clip(0, 1)
    rec("clip", y)
    rec("clip node", y.grad_fn.name())
    rec("torch.clip", T.clip(x, max=0.7))


def case_more_activations_and_one_hot(T, rec):
    F = T.nn.functional
    forms = [("leaky", lambda x: F.leaky_relu(x, 0.1)), ("leaky default", F.leaky_relu),
             ("silu", F.silu), ("gelu", F.gelu),
             ("gelu tanh", lambda x: F.gelu(x, approximate="tanh"))]
    for name, f in forms:
        x = T.tensor([-2.0, -0.5, 0.1, 0.5, 2.0], dtype=T.float64, requires_grad=True)
        y = f(x)
        rec(f"{name}", y)
        rec(f"{name} node", y.grad_fn.name())
        g, = T.autograd.grad(y.sum(), x, create_graph=True)
        rec(f"{name} first", g)
        rec(f"{name} second", T.autograd.grad(g.sum(), x)[0])
        rec(f"{name} gradcheck", (T.autograd.gradcheck(f, (x,)), T.autograd.gradgradcheck(f, (x,))))
        with rec.raises("not implemented for", name=f"{name} of integers"):
            f(T.tensor([1, 2]))
        rec(f"{name} float32", f(T.tensor([0.3, -0.7])))
    z = T.tensor([1.0, -1.0], requires_grad=True)
    g, = T.autograd.grad(F.leaky_relu(z).sum(), z, create_graph=True)
    rec("leaky double-backward node", g.grad_fn.name())
    w = T.tensor([1.0, -2.0], requires_grad=True)
    y = w * 1
    rec("leaky in place returns its input", F.leaky_relu(y, 0.1, inplace=True) is y)
    rec("leaky in place", (y, y.grad_fn.name(), y._version))
    y.sum().backward()
    rec("leaky in place grad", w.grad)
    with rec.raises("leaf Variable", name="leaky in place on a leaf"):
        F.leaky_relu(T.tensor([1.0], requires_grad=True), inplace=True)
    rec("one_hot", F.one_hot(T.tensor([0, 2, 1])))
    rec("one_hot classes", F.one_hot(T.tensor([[0], [3]]), 5))
    for name, call in (("too big", lambda: F.one_hot(T.tensor([0, 2]), 2)),
                       ("floats", lambda: F.one_hot(T.tensor([0.0, 2.0]))),
                       ("negative", lambda: F.one_hot(T.tensor([-1, 2])))):
        with rec.raises(name=f"one_hot {name}"):
            call()
    x = T.ones(1000, requires_grad=True)
    rec("dropout off", (F.dropout(x, 0.3, training=False) is x, F.dropout(x, 0.0) is x))
    d = F.dropout(x, 0.25)
    rec("dropout node", d.grad_fn.name())
    rec("dropout values", set(d.detach().tolist()) <= {0.0, 1 / 0.75})
    rec("dropout rate", 0.2 < float((d == 0).float().mean()) < 0.3)
    d.sum().backward()
    rec("dropout grad follows the mask", bool(((x.grad == 0) == (d == 0)).all()))
    with rec.raises("dropout probability", name="dropout p > 1"):
        F.dropout(x, 1.5)
    rec("dropout p = 1", F.dropout(T.ones(3, requires_grad=True), 1.0))
