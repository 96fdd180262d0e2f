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
    # --- missing API --------------------------------------------------------------
    "case_copy_": (MISSING, "bfloat16: numpy has no such dtype (ml_dtypes has, but the engine "
                            "depends on numpy alone, and PyTorch's promotion rules for it "
                            "would come with it)"),
    "case_grad_fn_attr_bindings": (MISSING, "div(rounding_mode=...)"),
    # --- engine -------------------------------------------------------------------
    "case_no_grad_copy": (ENGINE, "a gradient a node passes to two leaves is copied for both "
                                  "(PyTorch lets the last one keep it)"),
    # --- versions and views -------------------------------------------------------
    "case_inplace_not_requires_grad": (VIEWS, "an in-place change that requires grad, on a "
                                              "custom Function's view (or unbind's) of a "
                                              "tensor that does not, is not refused"),
    "case_inplace_on_view_backward": (VIEWS, "an in-place op through a view records CopySlices "
                                             "and AsStrided nodes of its own (PyTorch's "
                                             "CopySlices wraps the op): a double backward's "
                                             "graph differs"),
    "case_autograd_simple_views_python": (VIEWS, "a pure view "
                                                 "(ctx._is_pure_view) of a temporary is not "
                                                 "refused in place"),
    # --- gradcheck ----------------------------------------------------------------
    "case_gradcheck_forward_ad_respects_requires_grad": (GRADCHECK, "jvp called fewer times (no "
                                                                    "undefined / batched forward "
                                                                    "checks)"),
    "case_gradcheck_forward_ad_batched_grad": (GRADCHECK, "check_batched_forward_grad is "
                                                          "ignored"),
    # --- forward AD ---------------------------------------------------------------
    "case_CubeGenVmapAutogradFunction": (FORWARD_AD, "gradgradcheck ignores "
                                                     "check_fwd_over_rev; a saved output loses "
                                                     "its tangent (it is saved before forward "
                                                     "AD runs), so forward over a custom "
                                                     "backward gets zeros"),
    # --- printing -----------------------------------------------------------------
    "case_autograd_print_tensor": (PRINTING, "grad_fn=<Invalid>"),
}
