"""The core's error messages: PyTorch's words (searchable), then a minigrad hint where
PyTorch's are cryptic.  `{name}` fields are filled in where the error is raised."""

# --- saving for backward (function.py) ---------------------------------------------------

SAVE_OUTSIDE_FORWARD = (
    "save_for_backward can only be called from forward: backward reads what forward saved "
    "through ctx.saved_tensors.")

SAVE_NOT_A_TENSOR = (
    "save_for_backward can only save variables, but argument {position} is of type {kind}. "
    "Keep non-tensor values as attributes instead, e.g. ctx.value = value.")

BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved "
    "tensors after they have already been freed). Saved intermediate values of the "
    "graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward.")

MODIFIED_IN_PLACE = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [{tensor}]{where} is at version {version}; expected version {saved_version} "
    "instead. Hint: {hint}\n"
    "minigrad hint: {node} saved this tensor for backward and it was changed in place "
    "afterwards, so backward would use the wrong value. Use an out-of-place op instead "
    "(y = y + 1, not y.add_(1)), or clone() the tensor before modifying it.")

# The end of PyTorch's error above, out of anomaly mode and in it
HINT_ANOMALY_MODE = (
    "enable anomaly detection to find the operation that failed to compute its gradient, "
    "with torch.autograd.set_detect_anomaly(True, check_nan=False).")
HINT_IN_ANOMALY_MODE = (
    "the backtrace further above shows the operation that failed to compute its gradient. "
    "The variable in question was changed in there or anywhere later. Good luck!")

DETACHED_IN_PLACE = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_()."
    "This is not supported, please use out-of-place `.detach()` instead")

PACK_HOOK_IN_PLACE = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to "
    "pack hook cannot be modified by in-place operations as this can lead to unexpected "
    "side-effects. Please open an issue if you need to perform in-place operations on the "
    "input to a pack hook.")

UNPACK_HOOK_NOT_A_TENSOR = (
    "Output of saved tensor unpack_hook expected to be a Tensor but got result of type {kind}")

INFERENCE_TENSOR_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make "
    "a clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` "
    "instead of `torch.inference_mode()`.")

# --- the graph and the engine (graph.py) -----------------------------------------------------

GRADIENT_SHAPE = (
    "Function {node} returned an invalid gradient at index {position} - got {got} but "
    "expected shape compatible with {expected}. The gradient of an input must have that "
    "input's shape, or a shape it broadcasts to (the engine sums it down).")

GRADIENT_DEVICE = (
    "Function {node} returned an invalid gradient at index {position} - expected device "
    "{expected} but got {got}")

POST_ACCUMULATE_HOOK_RESULT = "Tensor post accumulate grad hooks should return None."

GRADIENT_NOT_A_TENSOR = "gradients can be either Tensors or None, but got {kind}"

GRADIENT_COUNT = (
    "got {outputs} tensors and {grads} gradients. minigrad hint: give one gradient per "
    "output (None for a scalar).")

NO_GRAD_FN = (
    "element {index} of tensors does not require grad and does not have a grad_fn. "
    "minigrad hint: nothing was recorded for this tensor; give a leaf requires_grad=True, "
    "and check that the computation did not run under torch.no_grad() or through "
    ".detach().")

NOT_A_SCALAR = (
    "grad can be implicitly created only for scalar outputs. minigrad hint: call .sum() "
    "first, or pass the gradient of the output, e.g. y.backward(torch.ones_like(y)).")

GRADIENT_SHAPE_MISMATCH = (
    "Mismatch in shape: grad_output[{index}] has a shape of {grad_shape} and output[{index}] "
    "has a shape of {output_shape}.")

FLAG_OUT_OF_RANGE = ("unsigned byte integer is less than minimum",       # retain_graph=-1
                     "unsigned byte integer is greater than maximum")    # 256 and above

NO_INPUTS = "`inputs` argument to `backward()` cannot be empty."

INPUT_NEEDS_NO_GRAD = "can't retain_grad on Tensor that has requires_grad=False"

# --- a Function's methods (function.py) --------------------------------------------------

NO_FORWARD = "You must implement the forward function for custom autograd.Function."

NO_BACKWARD = (
    "You must implement either the backward or vjp method for your custom "
    "autograd.Function to use it with backward mode AD.")

# --- hooks (tensor.py, hooks.py) ---------------------------------------------------------

HOOK_NEEDS_GRAD = "cannot register a hook on a tensor that doesn't require gradient"

POST_ACCUMULATE_HOOK_ON_NON_LEAF = (
    "post accumulate grad hooks cannot be registered on non-leaf tensors")

NODE_HOOK_NOT_A_TUPLE = "expected tuple, but hook returned '{kind}'"

NODE_HOOK_COUNT = (
    "hook '{name}' has returned an incorrect number of values (got {got}, but expected "
    "{expected})")

NODE_HOOK_REPLACED_NONE = "can't replace a None gradient with a non-None value"

HOOK_NOT_A_TENSOR = (
    "expected Variable, but hook returned '{kind}'. A tensor hook must return a tensor "
    "(the new gradient) or None.")

HOOK_CHANGED_SIZE = (
    "hook '{name}' has changed the size of value: the gradient had shape {expected} and "
    "the hook returned shape {got}.")

HOOK_CHANGED_TYPE = "hook '{name}' has changed the type of value (was {expected} got {got})"

# --- asked of a running backward (graph.py, capture.py) ----------------------------------

NOT_IN_BACKWARD = "_get_should_execute_nodes should only be called during the backward pass"

LEAF_CAPTURED = (
    "A leaf node was passed to _will_engine_execute_node but we are currently running "
    "autograd.grad(). This is currently not supported.")
