"""The cases ported from PyTorch's own tests (cases_pytorch_autograd.py,
cases_autograd_function_db.py) where minigrad still differs, with the kind of
difference and the first difference seen.  tests/test_differential.py runs them as
strict xfails, so a fix flips its case and the entry must go; scripts/pytorch_spec.py
prints the table by kind.

The kinds say which layer a fix belongs to (DESIGN notes, "Three layers"):
"missing API" and "surface" are PyTorch's surface; "grad modes", "engine", "custom
Function", "saved tensors", "versions and views", "anomaly mode", "gradcheck",
"forward AD" and "printing" are autograd semantics; "numbers" are wrong values.
"""
MISSING = "missing API"
SURFACE = "surface"
GRAD_MODES = "grad modes"
ENGINE = "engine"
FUNCTION = "custom Function"
SAVED = "saved tensors"
VIEWS = "versions and views"
ANOMALY = "anomaly mode"
GRADCHECK = "gradcheck"
FORWARD_AD = "forward AD"
PRINTING = "printing"
NUMBERS = "numbers"

KINDS = (MISSING, SURFACE, GRAD_MODES, ENGINE, FUNCTION, SAVED, VIEWS, ANOMALY, GRADCHECK,
         FORWARD_AD, PRINTING, NUMBERS)

PORTED_FAILING = {
    # --- missing API --------------------------------------------------------------------
    "case_inplace_not_requires_grad": (VIEWS, "an in-place change that requires grad, on a "
                                              "custom Function's view (or unbind's) of a tensor "
                                              "that does not, is not refused"),
    "case_inplace_on_view_backward": (VIEWS, "an in-place op through a view records CopySlices "
                                             "and AsStrided nodes of its own (PyTorch's "
                                             "CopySlices wraps the op): a double backward's "
                                             "graph differs"),
    "case_no_grad_copy": (ENGINE, "a gradient a node passes to two leaves is copied for both "
                                  "(PyTorch lets the last one keep it)"),
    "case_copy_": (MISSING, "bfloat16: numpy has no such dtype (ml_dtypes has, but the engine "
                            "depends on numpy alone, and PyTorch's promotion rules for it "
                            "would come with it)"),
    "case_grad_fn_attr_bindings": (MISSING, "div(rounding_mode=...)"),
    # --- PyTorch's surface --------------------------------------------------------------
    "case_grad_fn_badcalls": (SURFACE, "calling a node with the wrong number of gradients "
                                       "gives Python's message, not \"expected 1 arguments, "
                                       "got 2 instead\""),
    "case_attribute_deletion": (SURFACE, "del x.grad is refused (no deleter)"),
    "case_setitem": (SURFACE, "x[[[0, 1, 2, 3]]] indexes with a 2-d list, where PyTorch reads "
                              "a list holding a sequence as a tuple of indices"),
    # --- grad modes ---------------------------------------------------------------------
    "case_grad_mode_class_decoration": (GRAD_MODES, "no FutureWarning for @no_grad() on a "
                                                    "class"),
    "case_set_grad_generator_functions": (GRAD_MODES, "no_grad()/enable_grad() as decorators "
                                                      "of generator functions"),
    "case_set_grad_coroutines": (GRAD_MODES, "grad-mode decorators of generator functions"),
    "case_set_grad_coroutines_benign_exceptions": (GRAD_MODES, "grad-mode decorators of "
                                                               "generator functions"),
    "case_set_grad_coroutines_critical_exceptions": (GRAD_MODES, "grad-mode decorators of "
                                                                 "generator functions"),
    "case_set_grad_coroutines_exit": (GRAD_MODES, "grad-mode decorators of generator "
                                                  "functions"),
    # --- engine -------------------------------------------------------------------------
    "case_prehook_ordering": (ENGINE, "backward(inputs=...) skips the pre-hooks of an "
                                      "input's grad_fn"),
    "case_grad_unreachable_discovery": (ENGINE, "nodes off every path to the requested "
                                                "inputs run"),
    "case_deep_reentrant": (ENGINE, "deep reentrant backward hits RecursionError"),
    "case_grad_assignment": (ENGINE, "x.grad = x is accepted"),
    "case_inplace_on_view_saved_output": (ENGINE, "a node hook must be callable (PyTorch "
                                                  "stores any object)"),
    # --- custom Functions ---------------------------------------------------------------
    # --- saved tensors ------------------------------------------------------------------
    # --- versions and views -------------------------------------------------------------
    "case_autograd_simple_views_python": (VIEWS, "Tensor.select; a pure view "
                                                 "(ctx._is_pure_view) of a temporary is not "
                                                 "refused in place"),
    # --- anomaly mode -------------------------------------------------------------------
    "case_nested_anomaly_detect_nan": (ANOMALY, "no \"Error detected in XBackward0\" warning "
                                                "with the forward traceback, no parent "
                                                "traces"),
    "case_anomaly_detect_nan": (ANOMALY, "no warning with the forward traceback (\"No "
                                         "forward pass information\")"),
    "case_anomaly_grad_warnings": (ANOMALY, "no \"Error detected in PowBackward0\" warning"),
    # --- gradcheck ----------------------------------------------------------------------
    "case_gradcheck_nondeterministic": (GRADCHECK, "no check for reentrant backward"),
    "case_gradcheck_validates_inputs": (GRADCHECK, "a stride-0 input gives numpy's read-only "
                                                   "error"),
    "case_gradcheck_check_no_differentiable_outputs": (GRADCHECK, "no \"Numerical gradient "
                                                                  "for function expected to "
                                                                  "be zero\""),
    "case_gradcheck_backward_mul_by_grad_output": (GRADCHECK, "calls the function on inputs "
                                                              "that do not require grad; no "
                                                              "grad_output check"),
    "case_gradcheck_undefined_grad": (GRADCHECK, "calls the function on inputs that do not "
                                                 "require grad; no undefined-grad check"),
    "case_gradcheck_jacobian_mismatch": (GRADCHECK, "calls the function on inputs that do not "
                                                    "require grad"),
    "case_gradcheck_custom_error": (GRADCHECK, "calls the function on inputs that do not "
                                               "require grad"),
    "case_gradcheck_output_shape_or_dtype_depend_on_values": (GRADCHECK, "no output shape / "
                                                                         "dtype check"),
    "case_gradcheck_forward_ad_respects_requires_grad": (GRADCHECK, "jvp called fewer times "
                                                                    "(no undefined / batched "
                                                                    "forward checks)"),
    "case_gradcheck_forward_ad_batched_grad": (GRADCHECK, "check_batched_forward_grad is "
                                                          "ignored"),
    "case_inplace_on_view_makes_base_require_grad": (GRADCHECK, "calls the function on inputs "
                                                                "that do not require grad"),
    "case_NumpyCubeNotComposableAutogradFunction": (GRADCHECK, "no \"backward not multiplied "
                                                               "by grad_output\" check"),
    # --- forward AD ---------------------------------------------------------------------
    "case_CubeGenVmapAutogradFunction": (FORWARD_AD, "gradgradcheck ignores check_fwd_over_rev; "
                                                     "a saved output loses its tangent (it is "
                                                     "saved before forward AD runs), so forward "
                                                     "over a custom backward gets zeros"),
    # --- printing -----------------------------------------------------------------------
    "case_autograd_print_tensor": (PRINTING, "grad_fn=<Invalid>"),
    # --- numbers ------------------------------------------------------------------------
    "case_power_function": (NUMBERS, "d(0 ** b)/db at b = -1 is nan (PyTorch: -inf)"),
    "case_atan2_zero_gradient": (NUMBERS, "atan2's gradient at (0, 0) is nan (PyTorch: 0)"),
}
