"""Differential cases from probing custom Functions, gradcheck, autograd.functional
and forward_ad as the "Extending PyTorch" tutorials use them.  Each differed from
PyTorch 2.13 when written; those that still do are listed, with their reasons, in
test_differential.KNOWN_FAILING."""
import importlib
import warnings


def _fn_module(T):
    return importlib.import_module(T.__name__ + ".autograd.function")


def _fwad(T):
    return importlib.import_module(T.__name__ + ".autograd.forward_ad")


# --- custom autograd.Function ------------------------------------------------------------

def case_mark_non_differentiable_input_returned_as_is(T, rec):
    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_non_differentiable(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    y = F.apply(T.ones(2, requires_grad=True))
    rec("requires_grad", y.requires_grad)          # torch False, minigrad True


def case_mark_dirty_on_view_of_nonleaf_rebases_base(T, rec):
    class AddOne(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 5

    base = T.zeros(2, 2, requires_grad=True)
    b = base.clone()
    AddOne.apply(b[0])
    rec("b grad_fn", b.grad_fn.name())             # torch CopySlices, minigrad CloneBackward0
    b.sum().backward()
    rec("base grad", base.grad)                    # torch [[5,5],[1,1]], minigrad all ones


def case_once_differentiable_marks_result(T, rec):
    once = _fn_module(T).once_differentiable

    class Sq(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @once
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x * g

    x = T.tensor([1.0, 3.0], requires_grad=True)
    go = T.ones(2, requires_grad=True)
    g, = T.autograd.grad(Sq.apply(x), x, go, create_graph=True)
    rec("requires_grad", g.requires_grad)          # torch True (DelayedError node)
    with rec.raises("trying to differentiate twice", "once_differentiable", name="err"):
        g.sum().backward()


def case_once_differentiable_in_the_usual_case_and_with_a_gradient_that_requires_grad(T, rec):
    once = _fn_module(T).once_differentiable

    class Cube(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        @once
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * T.from_numpy(3 * x.detach().numpy()) * x

    x = T.tensor([1.0, 2.0], requires_grad=True)
    g, = T.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
    rec("usual: requires_grad", g.requires_grad)
    with rec.raises("does not require grad and does not have a grad_fn", name="usual"):
        T.autograd.grad(g.sum(), x)
    y = Cube.apply(x)
    g, = T.autograd.grad((y * y).sum(), x, create_graph=True)
    rec("y*y: node", g.grad_fn.name())
    with rec.raises("appears to not have been used in the graph", name="y*y: grad"):
        T.autograd.grad(g.sum(), x)
    with rec.raises("trying to differentiate twice a function that was marked with "
                    "@once_differentiable", name="y*y: backward"):
        g.sum().backward()


def case_tensor_output_nr(T, rec):
    a, b = (T.ones(4, requires_grad=True) * 1).split(2)
    rec("output_nr", (a.output_nr, b.output_nr))   # minigrad: AttributeError


def case_identity_function_without_recording(T, rec):
    class Id(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = T.ones(2)
    rec("is input (nothing requires grad)", Id.apply(x) is x)   # torch False
    w = T.ones(2, requires_grad=True)
    with T.no_grad():
        z = Id.apply(w)
    rec("no_grad: is input", z is w)                            # torch False
    rec("no_grad: requires_grad", z.requires_grad)              # torch False


def case_mark_dirty_under_no_grad(T, rec):
    class Double(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = T.ones(2, requires_grad=True)
    with T.no_grad():
        y = Double.apply(x)
    rec("is input", y is x)                        # torch False
    rec("requires_grad", y.requires_grad)          # torch False


def case_mark_dirty_and_non_differentiable_same_tensor(T, rec):
    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            ctx.mark_non_differentiable(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    h = T.ones(2, requires_grad=True) * 1
    y = F.apply(h)
    rec("requires_grad", y.requires_grad)          # torch False, minigrad True
    rec("grad_fn is None", y.grad_fn is None)      # torch True, minigrad MulBackward0


def case_save_for_backward_called_in_backward(T, rec):
    class G(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            ctx.save_for_backward(g)
            return g

    x = T.ones(2, requires_grad=True)
    with rec.raises(name="save in backward"):      # torch: allowed, minigrad RuntimeError
        G.apply(x).sum().backward()


def case_apply_keyword_only_argument(T, rec):
    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, *, shift=1.0):
            return x + shift

        @staticmethod
        def backward(ctx, g):
            return g

    x = T.ones(2, requires_grad=True)
    with rec.raises("unexpected keyword argument", name="kwonly"):
        rec("value", F.apply(x, shift=3.0))        # minigrad: shift silently dropped -> [2, 2]


# --- forward AD --------------------------------------------------------------------------

def case_jvp_saved_tensors_without_save_for_forward(T, rec):
    fwAD = _fwad(T)

    class J(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            return g

        @staticmethod
        def jvp(ctx, t):
            rec("saved_tensors in jvp", ctx.saved_tensors)   # torch (), minigrad (x,)
            return t

    with fwAD.dual_level():
        J.apply(fwAD.make_dual(T.ones(2), T.ones(2)))


def case_custom_jvp_identity_must_return_view(T, rec):
    fwAD = _fwad(T)

    class Id(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

        @staticmethod
        def jvp(ctx, t):
            return t * 5

    with fwAD.dual_level():
        d = fwAD.make_dual(T.ones(2), T.ones(2))
        with rec.raises("not returning a view", name="err"):
            Id.apply(d)
        rec("input tangent after", fwAD.unpack_dual(d).tangent)   # minigrad: overwritten to 5


def case_forward_ad_tangent_is_differentiable(T, rec):
    fwAD = _fwad(T)
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, T.tensor([1.0, 0.0]))
        t = fwAD.unpack_dual((d ** 3).sum()).tangent
        rec("tangent requires_grad", t.requires_grad)            # torch True
        with rec.raises(name="grad of tangent"):
            rec("H v", T.autograd.grad(t, x))                    # torch [6, 0]


def case_forward_ad_inplace_mul(T, rec):
    fwAD = _fwad(T)
    with fwAD.dual_level():
        e = fwAD.make_dual(T.tensor([1.0, 2.0]), T.ones(2)) * 1
        with rec.raises(name="mul_"):                             # minigrad NotImplementedError
            e.mul_(3)
            rec("tangent", fwAD.unpack_dual(e).tangent)


# --- gradcheck / gradgradcheck -----------------------------------------------------------

def _bad_square(T):
    class BadSq(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 2

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 3 * x
    return BadSq


def case_gradcheck_fast_mode_message(T, rec):
    x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    with rec.raises("fast mode", name="fast"):
        T.autograd.gradcheck(_bad_square(T).apply, (x,), fast_mode=True)


def case_gradcheck_input_index_counts_differentiable_inputs(T, rec):
    a = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    b = T.tensor([3.0, 4.0], dtype=T.float64, requires_grad=True)
    with rec.raises("with respect to input 1,", name="which"):   # minigrad says input 2
        T.autograd.gradcheck(lambda a, k, b: a + _bad_square(T).apply(b), (a, 5, b))


def case_gradcheck_noncontiguous_input(T, rec):
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=T.float64).t().detach().requires_grad_()
    rec("ok", T.autograd.gradcheck(lambda t: t ** 2, (x,), raise_exception=False))  # minigrad False


def case_gradcheck_nondeterministic_backward(T, rec):
    calls = [0]

    class Noisy(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            calls[0] += 1
            return g * (2 + calls[0] * 1e-9)

    x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    with rec.raises("Backward is not reentrant", name="reentrant"):
        T.autograd.gradcheck(Noisy.apply, (x,))
    rec("nondet_tol", T.autograd.gradcheck(Noisy.apply, (x,), nondet_tol=1e-6))


def case_gradcheck_undefined_grad_check(T, rec):
    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            if g1 is None and g2 is None:
                return T.ones(2, dtype=T.float64)     # must be None/zeros
            return (0 if g1 is None else 2 * g1) + (0 if g2 is None else 3 * g2)

    x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    with rec.raises("undefined", name="undefined"):
        T.autograd.gradcheck(F.apply, (x,))
    rec("check off", T.autograd.gradcheck(F.apply, (x,), check_undefined_grad=False))


def case_gradcheck_stride_zero_input(T, rec):
    x = T.tensor([1.0], dtype=T.float64).expand(3).requires_grad_()
    with rec.raises("stride 0", name="expanded"):   # minigrad ValueError "read-only"
        T.autograd.gradcheck(lambda t: t * 2, (x,))


def case_gradcheck_non_tensor_output(T, rec):
    x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    with rec.raises(name="float output"):           # torch AttributeError, minigrad True
        T.autograd.gradcheck(lambda t: 3.0, (x,))
    with rec.raises(name="None in outputs"):        # torch AttributeError, minigrad True
        T.autograd.gradcheck(lambda t: (t * 2, None), (x,))


def case_gradcheck_output_not_requiring_grad(T, rec):
    x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    with rec.raises("Numerical gradient for function expected to be zero", name="detached"):
        T.autograd.gradcheck(lambda t: t.detach() * 2, (x,))


def case_gradcheck_float32_warning(T, rec):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        T.autograd.gradcheck(lambda t: t * 2, (x,), raise_exception=False)
    rec("warned", any("double precision" in str(c.message) for c in caught))


def case_gradcheck_unknown_keyword(T, rec):
    x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    with rec.raises("unexpected keyword argument", name="gradcheck typo"):
        T.autograd.gradcheck(lambda t: t.sin(), (x,), atoll=1e-3)
    with rec.raises("unexpected keyword argument", name="gradgradcheck typo"):
        T.autograd.gradgradcheck(lambda t: t.sin(), (x,), rtoll=1e-3)
    with rec.raises("check_rev_over_rev", name="no rev over rev"):
        T.autograd.gradgradcheck(lambda t: t.sin(), (x,), check_rev_over_rev=False,
                                 check_fwd_over_rev=True)


def case_vectorize_and_batched_grad_are_ignored(T, rec):
    class NpSq(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return T.tensor(2 * x.detach().numpy() * g.detach().numpy())

    with rec.raises(name="jacobian vectorize"):      # torch: vmap cannot batch .numpy()
        T.autograd.functional.jacobian(NpSq.apply, T.tensor([1.0, 2.0]), vectorize=True)
    x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    with rec.raises(name="gradcheck batched"):
        T.autograd.gradcheck(NpSq.apply, (x,), check_batched_grad=True)


# --- autograd.functional -----------------------------------------------------------------

def case_functional_strict_with_vectorize(T, rec):
    with rec.raises("strict=True", "vectorize", name="err"):
        T.autograd.functional.jacobian(lambda a: a * 2, T.ones(2), strict=True, vectorize=True)


def case_functional_strict_create_graph_linear(T, rec):
    F = T.autograd.functional
    a = T.tensor([1.0, 2.0])
    with rec.raises("independent of input 0", "create_graph", name="vjp"):
        F.vjp(lambda t: t * 2, a, T.ones(2), strict=True, create_graph=True)
    with rec.raises("independent of input 0", "create_graph", name="jvp"):
        F.jvp(lambda t: t * 2, a, T.ones(2), strict=True, create_graph=True)
    with rec.raises("independent of input 0", "create_graph", name="jacobian"):
        F.jacobian(lambda t: t * 1, a, strict=True, create_graph=True)


def case_functional_strict_output_not_requiring_grad_message(T, rec):
    F = T.autograd.functional
    with rec.raises("does not require gradients", name="jacobian"):
        F.jacobian(lambda t: t.detach() * 2, T.ones(2), strict=True)
    with rec.raises("While computing the hessian", name="hessian"):
        F.hessian(lambda t: (t * 2).sum(), T.ones(2), strict=True)


def case_functional_jacobian_strategy_errors(T, rec):
    F = T.autograd.functional
    a = T.ones(2)
    with rec.raises("vectorize", name="forward-mode without vectorize"):
        F.jacobian(lambda t: t ** 2, a, strategy="forward-mode")
    with rec.raises(name="unknown strategy"):       # torch AssertionError
        F.jacobian(lambda t: t ** 2, a, strategy="sideways")
    with rec.raises("vectorize", name="hessian outer forward-mode"):   # minigrad: ignored
        F.hessian(lambda t: (t ** 2).sum(), a, outer_jacobian_strategy="forward-mode")
    with rec.raises(name="forward-mode vectorized"):                  # minigrad: refused
        rec("value", F.jacobian(lambda t: t ** 2, a, strategy="forward-mode", vectorize=True))


def case_functional_hvp_is_not_vhp(T, rec):
    class Skew(T.autograd.Function):       # backward's Jacobian is not symmetric
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return (x[0] * x[1]).reshape(())

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * T.stack([x[1] * 2, x[0] ** 2])

    x = T.tensor([2.0, 3.0])
    v = T.tensor([1.0, 0.0])
    rec("hvp", T.autograd.functional.hvp(Skew.apply, x, v)[1])   # torch [0, 4], minigrad [0, 2]


# --- missing API -------------------------------------------------------------------------

def case_torch_func_and_vmap_api(T, rec):
    rec("torch.func", hasattr(T, "func"))
    rec("Function.vmap", hasattr(T.autograd.Function, "vmap"))
    rec("Function.generate_vmap_rule", hasattr(T.autograd.Function, "generate_vmap_rule"))
    rec("InplaceFunction", hasattr(T.autograd.function, "InplaceFunction"))
