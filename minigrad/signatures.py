"""PyTorch's signatures of the public functions and Tensor methods, as its argument
parser knows them: the Python types each argument accepts.  arguments.py checks every
call against them, so a wrong argument gives the TypeError PyTorch gives, before any
computing starts.

One line per overload, in PyTorch's words: ``Kind name``, ``=default`` when the
argument may be left out, ``?`` after the kind when None is allowed, ``*`` before the
keyword-only ones.  Kinds:

- ``Tensor``; ``Tensor[]`` (a list or tuple of tensors);
- ``Number`` (a bool, int or float, or a one-element tensor);
- ``int`` (not a bool; a one-element integer tensor counts), ``float``, ``bool``, ``str``;
- ``int[]`` (a sequence of ints), ``int[1]`` (the same, or one int); ``int...`` (sizes
  given one by one, as in ``ones(2, 3)``, or as one sequence);
- ``dtype``; ``any`` (not checked: device, layout ...);
- ``Dimname``, ``Dimname[]``: named dims, which minigrad does not have; their overloads
  never match, and like the deprecated ones (marked ``~``) PyTorch leaves them out of its
  message.

The functions whose Tensor arguments also take a Python number (``torch.mul(2, x)``) are
in NUMBERS_AS_TENSORS, as in PyTorch's parser.
"""
_CREATION = "*, dtype? dtype=None, any device=None, any layout=None, bool requires_grad=False"

FUNCTIONS = {
    "add": ["Tensor input, Tensor other, *, Number alpha=1, any out=None",
            "~Tensor input, Number alpha, Tensor other, *, any out=None"],
    "sub": ["Tensor input, Tensor other, *, Number alpha=1, any out=None",
            "~Tensor input, Number alpha, Tensor other, *, any out=None"],
    "mul": ["Tensor input, Tensor other, *, any out=None"],
    "div": ["Tensor input, Tensor other, *, any out=None",
            "Tensor input, Tensor other, *, str? rounding_mode, any out=None"],
    "pow": ["Tensor input, Tensor exponent, *, any out=None",
            "Number self, Tensor exponent, *, any out=None",
            "Tensor input, Number exponent, *, any out=None"],
    "matmul": ["Tensor input, Tensor other, *, any out=None"],
    "abs": ["Tensor input, *, any out=None"],
    "mm": ["Tensor input, Tensor mat2, *, any out=None",
           "Tensor input, Tensor mat2, dtype out_dtype, *, any out=None"],
    "dot": ["Tensor input, Tensor tensor, *, any out=None"],
    "mv": ["Tensor input, Tensor vec, *, any out=None"],
    "bmm": ["Tensor input, Tensor mat2, *, any out=None",
            "Tensor input, Tensor mat2, dtype out_dtype, *, any out=None"],
    "outer": ["Tensor input, Tensor vec2, *, any out=None"],
    "addmm": ["Tensor input, Tensor mat1, Tensor mat2, *, Number beta=1, Number alpha=1, "
              "any out=None"],
    "maximum": ["Tensor input, Tensor other, *, any out=None"],
    "minimum": ["Tensor input, Tensor other, *, any out=None"],
    "atan2": ["Tensor input, Tensor other, *, any out=None"],
    "remainder": ["Tensor input, Tensor other, *, any out=None",
                  "Number self, Tensor other",
                  "Tensor input, Number other, *, any out=None"],
    "floor_divide": ["Tensor input, Tensor other, *, any out=None",
                     "Tensor input, Number other"],
    "clamp": ["Tensor input, Tensor? min=None, Tensor? max=None, *, any out=None",
              "Tensor input, Number? min=None, Number? max=None, *, any out=None"],
    "sum": ["Tensor input, *, dtype? dtype=None",
            "Tensor input, int[1]? dim, bool keepdim=False, *, dtype? dtype=None, any out=None",
            "Tensor input, Dimname[] dim, bool keepdim=False, *, dtype? dtype=None"],
    "mean": ["Tensor input, *, dtype? dtype=None",
             "Tensor input, int[1]? dim, bool keepdim=False, *, dtype? dtype=None, "
             "any out=None",
             "Tensor input, Dimname[] dim, bool keepdim=False, *, dtype? dtype=None"],
    "prod": ["Tensor input, *, dtype? dtype=None",
             "Tensor input, int dim, bool keepdim=False, *, dtype? dtype=None, any out=None",
             "Tensor input, Dimname dim, bool keepdim=False, *, dtype? dtype=None"],
    "std": ["Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False, *, any out=None",
            "Tensor input, int[1]? dim=None, *, Number? correction=None, bool keepdim=False, "
            "any out=None",
            "Tensor input, bool unbiased=True",
            "Tensor input, Dimname[] dim, bool unbiased=True, bool keepdim=False"],
    "max": ["Tensor input",
            "Tensor input, Tensor other, *, any out=None",
            "Tensor input, int dim, bool keepdim=False, *, any out=None",
            "Tensor input, Dimname dim, bool keepdim=False"],
    "median": ["Tensor input",
               "Tensor input, int dim, bool keepdim=False, *, any out=None",
               "Tensor input, Dimname dim, bool keepdim=False, *, any out=None"],
    "kthvalue": ["Tensor input, int k, int dim=-1, bool keepdim=False, *, any out=None",
                 "Tensor input, int k, Dimname dim, bool keepdim=False, *, any out=None"],
    "mode": ["Tensor input, int dim=-1, bool keepdim=False, *, any out=None",
             "Tensor input, Dimname dim, bool keepdim=False, *, any out=None"],
    "clamp_min": ["Tensor input, Tensor min, *, any out=None",
                  "Tensor input, Number min, *, any out=None"],
    "clamp_max": ["Tensor input, Tensor max, *, any out=None",
                  "Tensor input, Number max, *, any out=None"],
    "index_fill": ["Tensor input, int dim, Tensor index, Tensor value",
                   "Tensor input, int dim, Tensor index, Number value"],
    "unflatten": ["Tensor input, int dim, int[] sizes"],
    "index_add": ["Tensor input, int dim, Tensor index, Tensor source, *, Number alpha=1, "
                  "any out=None",
                  "Tensor input, Dimname dim, Tensor index, Tensor source, *, Number alpha=1"],
    "tensor_split": ["Tensor input, int sections, int dim=0",
                     "Tensor input, int[] indices, int dim=0",
                     "Tensor input, Tensor tensor_indices_or_sections, int dim=0"],
    "argmax": ["Tensor input, int? dim=None, bool keepdim=False, *, any out=None"],
    "logsumexp": ["Tensor input, int[1] dim, bool keepdim=False, *, any out=None",
                  "Tensor input, Dimname[] dim, bool keepdim=False"],
    "cumsum": ["Tensor input, int dim, *, dtype? dtype=None, any out=None",
               "Tensor input, Dimname dim, *, dtype? dtype=None"],
    "cumprod": ["Tensor input, int dim, *, dtype? dtype=None, any out=None",
                "Tensor input, Dimname dim, *, dtype? dtype=None"],
    "softmax": ["Tensor input, int dim, dtype? dtype=None",
                "Tensor input, Dimname dim, *, dtype? dtype=None"],
    "reshape": ["Tensor input, int[] shape"],
    "transpose": ["Tensor input, int dim0, int dim1",
                  "Tensor input, Dimname dim0, Dimname dim1"],
    "permute": ["Tensor input, int[] dims"],
    "squeeze": ["Tensor input", "Tensor input, int dim", "Tensor input, int[] dim",
                "Tensor input, Dimname dim"],
    "unsqueeze": ["Tensor input, int dim"],
    "flatten": ["Tensor input, int start_dim=0, int end_dim=-1",
                "Tensor input, int start_dim, int end_dim, Dimname out_dim",
                "Tensor input, Dimname start_dim, Dimname end_dim, Dimname out_dim",
                "Tensor input, Dimname[] dims, Dimname out_dim"],
    "flip": ["Tensor input, int[] dims"],
    "roll": ["Tensor input, int[1] shifts, int[1]? dims=None"],
    "split": ["Tensor input, int split_size, int dim=0", "Tensor input, int[] split_size, int dim=0"],
    "narrow": ["Tensor input, int dim, Tensor start, int length",
               "Tensor input, int dim, int start, int length"],
    "chunk": ["Tensor input, int chunks, int dim=0"],
    "split_with_sizes": ["Tensor input, int[] split_sizes, int dim=0"],
    "unsafe_split": ["Tensor input, int split_size, int dim=0"],
    "select": ["Tensor input, Dimname dim, int index", "Tensor input, int dim, int index"],
    "diagonal": ["Tensor input, *, Dimname outdim, Dimname dim1, Dimname dim2, int offset=0",
                 "Tensor input, int offset=0, int dim1=0, int dim2=1"],
    "argsort": ["Tensor input, *, bool stable, int dim=-1, bool descending=False",
                "Tensor input, int dim=-1, bool descending=False",
                "Tensor input, Dimname dim, bool descending=False"],
    "take_along_dim": ["Tensor input, Tensor indices, int? dim=None, *, any out=None"],
    "count_nonzero": ["Tensor input, int[] dim", "Tensor input, int? dim=None"],
    "tril": ["Tensor input, int diagonal=0, *, any out=None"],
    "cat": ["Tensor[] tensors, int dim=0, *, any out=None",
            "Tensor[] tensors, Dimname dim, *, any out=None"],
    "stack": ["Tensor[] tensors, int dim=0, *, any out=None"],
    "where": ["Tensor condition",
              "Tensor condition, Tensor input, Tensor other, *, any out=None",
              "Tensor condition, Number self, Tensor other",
              "Tensor condition, Tensor input, Number other",
              "Tensor condition, Number self, Number other"],
    "masked_fill": ["Tensor input, Tensor mask, Tensor value",
                    "Tensor input, Tensor mask, Number value"],
    "gather": ["Tensor input, int dim, Tensor index, *, bool sparse_grad=False, any out=None",
               "Tensor input, Dimname dim, Tensor index, *, bool sparse_grad=False"],
    "index_select": ["Tensor input, int dim, Tensor index, *, any out=None",
                     "Tensor input, Dimname dim, Tensor index, *, any out=None"],
    "allclose": ["Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, "
                 "bool equal_nan=False"],
    "equal": ["Tensor input, Tensor other"],
    "ones": [f"int... size, *, any out=None, {_CREATION}",
             f"int... size, *, Dimname[]? names, {_CREATION}"],
    "full": [f"int[] size, Number fill_value, *, any out=None, {_CREATION}",
             f"int[] size, Number fill_value, *, Dimname[]? names, {_CREATION}"],
    "arange": [f"Number end, *, any out=None, {_CREATION}",
               f"Number start, Number end, *, {_CREATION}",
               f"Number start, Number end, Number step=1, *, any out=None, {_CREATION}"],
    "eye": [f"int n, *, any out=None, {_CREATION}",
            f"int n, int m, *, any out=None, {_CREATION}"],
    "linspace": [f"Tensor start, Tensor end, int steps, *, any out=None, {_CREATION}",
                 f"Number start, Tensor end, int steps, *, any out=None, {_CREATION}",
                 f"Tensor start, Number end, int steps, *, any out=None, {_CREATION}",
                 f"Number start, Number end, int steps, *, any out=None, {_CREATION}"],
    "randint": [f"int high, int[] size, *, any generator=None, any out=None, {_CREATION}",
                f"int low, int high, int[] size, *, any generator=None, any out=None, "
                f"{_CREATION}"],
    "normal": ["Tensor mean, Tensor std, *, any generator=None, any out=None",
               "Tensor mean, float std=1, *, any generator=None, any out=None",
               "float mean, Tensor std, *, any generator=None, any out=None",
               "float mean, float std, int[] size, *, any generator=None, any out=None, "
               "dtype? dtype=None, any layout=None, any device=None, bool pin_memory=False, "
               "bool requires_grad=False"],
    "diag": ["Tensor input, int diagonal=0, *, any out=None"],
    "amax": ["Tensor input, int[1]? dim=(), bool keepdim=False, *, any out=None"],
    "all": ["Tensor input, *, any out=None",
            "Tensor input, int[]? dim=None, bool keepdim=False, *, any out=None",
            "Tensor input, int dim, bool keepdim=False, *, any out=None"],
    "topk": ["Tensor input, int k, int dim=-1, bool largest=True, bool sorted=True, *, "
             "any out=None"],
    "sort": ["Tensor input, *, bool? stable, int dim=-1, bool descending=False, any out=None",
             "Tensor input, int dim=-1, bool descending=False, *, any out=None"],
    "round": ["Tensor input, *, any out=None", "Tensor input, *, int decimals, any out=None"],
    "unbind": ["Tensor input, int dim=0"],
    "cross": ["Tensor input, Tensor other, int? dim=None, *, any out=None"],
    "isclose": ["Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, "
                "bool equal_nan=False"],
    "eq": ["Tensor input, Tensor other, *, any out=None",
           "Tensor input, Number other, *, any out=None"],
    "bitwise_and": ["Tensor input, Tensor other, *, any out=None", "Number self, Tensor other",
                    "Tensor input, Number other, *, any out=None"],
    "logical_and": ["Tensor input, Tensor other, *, any out=None"],
    "lerp": ["Tensor input, Tensor end, Tensor weight, *, any out=None",
             "Tensor input, Tensor end, Number weight, *, any out=None"],
    "addcmul": ["~Tensor self, Number value, Tensor tensor1, Tensor tensor2, *, any out=None",
                "Tensor input, Tensor tensor1, Tensor tensor2, *, Number value=1, any out=None"],
    "masked_select": ["Tensor input, Tensor mask, *, any out=None"],
    "nonzero": ["Tensor input, *, any out=None, bool as_tuple=False"],
    "repeat_interleave": ["Tensor input, Tensor repeats, int? dim=None, *, int? output_size=None",
                          "Tensor repeats, *, int? output_size=None",
                          "Tensor input, int repeats, int? dim=None, *, int? output_size=None"],
    "scatter": ["Tensor input, int dim, Tensor index, Tensor src, *, any out=None",
                "Tensor input, int dim, Tensor index, Tensor src, *, str reduce, any out=None",
                "Tensor input, int dim, Tensor index, Number value, *, any out=None",
                "Tensor input, int dim, Tensor index, Number value, *, str reduce, "
                "any out=None"],
    "scatter_add": ["Tensor input, int dim, Tensor index, Tensor src, *, any out=None"],
    "movedim": ["Tensor input, int source, int destination",
                "Tensor input, int[] source, int[] destination"],
    "swapaxes": ["Tensor input, int axis0, int axis1"],
    "swapdims": ["Tensor input, int dim0, int dim1"],
    "broadcast_to": ["Tensor input, int[] size"],
    "nan_to_num": ["Tensor input, float? nan=None, float? posinf=None, float? neginf=None, *, "
                   "any out=None"],
    "clip": ["Tensor input, Tensor? min=None, Tensor? max=None, *, any out=None",
             "Tensor input, Number? min=None, Number? max=None, *, any out=None"],
    "unique": ["Tensor input, bool sorted=True, bool return_inverse=False, "
               "bool return_counts=False, int? dim=None"],
    "fill_": ["Tensor input, Tensor value", "Tensor input, Number value"],
    "clamp_max_": ["Tensor input, Tensor max", "Tensor input, Number max"],
    "clamp_min_": ["Tensor input, Tensor min", "Tensor input, Number min"],
    "clamp_": ["Tensor input, Tensor? min=None, Tensor? max=None",
               "Tensor input, Number? min=None, Number? max=None"],
    "threshold": ["Tensor input, Number threshold, Number value, *, any out=None"],
    "threshold_": ["Tensor input, Number threshold, Number value"],
    "ones_like": [f"Tensor input, {_CREATION}, any memory_format=None"],
    "full_like": [f"Tensor input, Number fill_value, {_CREATION}, any memory_format=None"],
}
for _same, _as in (("exp log sin cos tan tanh sigmoid sqrt neg reciprocal sign square floor "
                    "ceil trunc exp2 expm1 log2 log10 log1p sinh cosh asin acos atan erf erfc",
                    "abs"), ("relu isnan isinf isfinite clone numel t trace is_inference", "numel"),
                   ("min", "max"), ("nanmedian", "median"), ("argmin", "argmax"),
                   ("var var_mean std_mean", "std"),
                   ("unsafe_chunk", "chunk"), ("unsafe_split_with_sizes", "split_with_sizes"),
                   ("log_softmax", "softmax"), ("triu", "tril"),
                   ("zeros empty", "ones"), ("zeros_like empty_like rand_like randn_like",
                                             "ones_like"),
                   ("ger", "outer"),
                   ("rsqrt is_floating_point arccos arcsin arctan bitwise_not logical_not abs_ cos_ exp_ log_ "
                    "neg_ reciprocal_ relu_ sigmoid_ sin_ sqrt_ tanh_ zero_ detach_", "numel"),
                   ("amin", "amax"), ("any", "all"), ("addcdiv", "addcmul"),
                   ("ne lt le gt ge greater less not_equal greater_equal less_equal", "eq"),
                   ("bitwise_or bitwise_xor", "bitwise_and"),
                   ("logical_or logical_xor arctan2", "logical_and"), ("moveaxis", "movedim")):
    for _name in _same.split():
        FUNCTIONS.setdefault(_name, FUNCTIONS.get(_as, ["Tensor input"]))

# Tensor methods: the arguments after self.  Below, the method forms of some FUNCTIONS (not of
# those minigrad itself calls with arguments PyTorch's methods refuse, such as x.max(None)).
METHODS = {
    "to": ["dtype dtype, bool non_blocking=False, bool copy=False, *, any memory_format=None",
           "any device=None, dtype? dtype=None, bool non_blocking=False, bool copy=False, *, "
           "any memory_format=None",
           "Tensor other, bool non_blocking=False, bool copy=False, *, any memory_format=None"],
    "add": ["Tensor other, *, Number alpha=1"], "add_": ["Tensor other, *, Number alpha=1"],
    "sub": ["Tensor other, *, Number alpha=1"], "sub_": ["Tensor other, *, Number alpha=1"],
    "mul": ["Tensor other"], "mul_": ["Tensor other"],
    "div": ["Tensor other", "Tensor other, *, str? rounding_mode"],
    "div_": ["Tensor other", "Tensor other, *, str? rounding_mode"],
    "clamp_": ["Tensor? min=None, Tensor? max=None", "Number? min=None, Number? max=None"],
    "fill_": ["Tensor value", "Number value"],
    "copy_": ["Tensor other, bool non_blocking=False"],
    "masked_fill": ["Tensor mask, Tensor value", "Tensor mask, Number value"],
    "eq_": ["Tensor other", "Number other"], "ne_": ["Tensor other", "Number other"],
    "lt_": ["Tensor other", "Number other"], "le_": ["Tensor other", "Number other"],
    "gt_": ["Tensor other", "Number other"], "ge_": ["Tensor other", "Number other"],
    "masked_fill_": ["Tensor mask, Tensor value", "Tensor mask, Number value"],
    "view": ["dtype dtype", "int... size"],
    "expand": ["int... size, *, bool implicit=False"],
    "repeat": ["int... repeats"],
    "resize_": ["int... size, *, any memory_format=None"],
    "resize_as_": ["Tensor the_template, *, any memory_format=None"],
    "type_as": ["Tensor other"],
    "sum_to_size": ["int... size"],
    "requires_grad_": ["bool requires_grad=True"],
    "size": ["int? dim=None", "Dimname dim"],
    "new_full": [f"int[] size, Number fill_value, {_CREATION}"],
    "new_ones": [f"int... size, {_CREATION}"],
    "new_zeros": [f"int... size, {_CREATION}"],
    "index_add_": ["int dim, Tensor index, Tensor source, *, Number alpha=1"],
    "scatter_": ["int dim, Tensor index, Tensor src", "int dim, Tensor index, Tensor src, *, "
                 "str reduce", "int dim, Tensor index, Number value",
                 "int dim, Tensor index, Number value, *, str reduce"],
    "scatter_add_": ["int dim, Tensor index, Tensor src"],
    "addcmul_": ["~Number value, Tensor tensor1, Tensor tensor2",
                 "Tensor tensor1, Tensor tensor2, *, Number value=1"],
    "lerp_": ["Tensor end, Tensor weight", "Tensor end, Number weight"],
    "repeat_interleave": ["Tensor repeats, int? dim=None, *, int? output_size=None",
                          "int repeats, int? dim=None, *, int? output_size=None"],
    "pow": ["Tensor exponent", "Number exponent"], "pow_": ["Tensor exponent", "Number exponent"],
    "clamp_min_": ["Tensor min", "Number min"], "clamp_max_": ["Tensor max", "Number max"],
    "expand_as": ["Tensor other"], "view_as": ["Tensor other"], "reshape_as": ["Tensor other"],
    "squeeze_": ["", "int dim", "int[] dim"], "unsqueeze_": ["int dim"],
    "normal_": ["float mean=0, float std=1, *, any generator=None"],
    "uniform_": ["float from=0, float to=1, *, any generator=None"],
    "max": ["", "Tensor other", "int dim, bool keepdim=False", "Dimname dim, bool keepdim=False"],
    "stride": ["int? dim=None"],
    "unique": ["bool sorted=True, bool return_inverse=False, bool return_counts=False, "
               "int? dim=None"],
}
METHODS["min"] = METHODS["max"]
METHODS["addcdiv_"] = METHODS["addcmul_"]

for _name in ("sum mean reshape permute flip transpose unsqueeze gather index_select narrow "
              "chunk split split_with_sizes unsafe_split unsafe_split_with_sizes unsafe_chunk "
              "select diagonal median nanmedian kthvalue mode mv bmm index_fill index_add unflatten "
              "tensor_split argsort take_along_dim count_nonzero roll tril triu clamp "
              "allclose equal mm matmul dot outer maximum minimum atan2 addmm diag amax amin "
              "all any topk sort round unbind cross isclose eq ne lt le gt ge lerp addcmul "
              "addcdiv masked_select nonzero scatter scatter_add movedim swapaxes swapdims "
              "broadcast_to nan_to_num cumprod logical_and logical_or logical_xor argmax argmin "
              "cumsum softmax log_softmax logsumexp flatten arctan2 prod std var squeeze "
              "clamp_min clamp_max clip remainder floor_divide ger bitwise_and bitwise_or "
              "bitwise_xor not_equal greater greater_equal less less_equal").split():
    METHODS.setdefault(_name, [t[len("Tensor input"):].lstrip(", ").replace(
        "int[] shape", "int... shape").replace("int[] dims", "int... dims")  # x.reshape(2, 3)
        for t in FUNCTIONS[_name]])

NUMBERS_AS_TENSORS = {"add", "add_", "sub", "sub_", "mul", "mul_", "div", "div_",
                      "floor_divide", "copy_", "to"}

# nn.functional: only what PyTorch's parser sees of them (they are Python functions there)
FUNCTIONAL = {
    "relu": ["Tensor input, bool inplace=False"],
    "gelu": ["Tensor input, *, str approximate='none'"],
    "silu": ["Tensor input, bool inplace=False"],
    "threshold": ["Tensor input, Number threshold, Number value, bool inplace=False"],
    "threshold_": ["Tensor input, Number threshold, Number value"],
    "elu": ["Tensor input, Number alpha=1.0, any inplace=False"],
    "softplus": ["Tensor input, Number beta=1, Number threshold=20"],
    "hardtanh": ["Tensor input, any min_val=-1.0, any max_val=1.0, any inplace=False"],
    "hardtanh_": ["Tensor input, Number min_val=-1.0, Number max_val=1.0"],
    "relu6": ["Tensor input, any inplace=False"],
    "relu_": ["Tensor input"], "elu_": ["Tensor input, Number alpha=1.0"],
    "leaky_relu_": ["Tensor input, Number negative_slope=0.01"],
    "logsigmoid": ["Tensor input"],
    "pad": ["Tensor input, int[] pad, str mode='constant', float? value=None"],
    "cosine_similarity": ["Tensor x1, Tensor x2, int dim=1, float eps=1e-08"],
    "leaky_relu": ["Tensor input, Number negative_slope=0.01, bool inplace=False"],
    "linear": ["Tensor input, Tensor weight, Tensor? bias=None"],
    "one_hot": ["Tensor input, int num_classes=-1"],
    "dropout": ["Tensor input, any p=0.5, bool training=True, bool inplace=False"],
    "softmax": ["any input, int? dim=None, any _stacklevel=3, dtype? dtype=None"],
    "log_softmax": ["any input, int? dim=None, any _stacklevel=3, dtype? dtype=None"],
    # the losses in minigrad's order (without PyTorch's deprecated size_average and reduce)
    "mse_loss": ["Tensor input, Tensor target, str reduction='mean'"],
    "binary_cross_entropy": ["Tensor input, Tensor target, Tensor? weight=None, "
                             "str reduction='mean'"],
    "cross_entropy": ["Tensor input, Tensor target, Tensor? weight=None, int ignore_index=-100, "
                      "str reduction='mean', float label_smoothing=0.0"],
    "nll_loss": ["Tensor input, Tensor target, Tensor? weight=None, int ignore_index=-100, "
                 "str reduction='mean'"],
}

# What PyTorch's functions written in Python read of an argument before its parser sees
# it: a value without that attribute raises Python's AttributeError ("'int' object has no
# attribute 'size'"), a numpy array's size, an int, Python's TypeError when called.
READS_FIRST = {"norm": ["input.layout"], "split": ["tensor.split"]}
_SIZES = ["target.size()", "input.size()"]          # the losses compare the two sizes first
FUNCTIONAL_READS_FIRST = {
    "mse_loss": _SIZES, "l1_loss": _SIZES, "smooth_l1_loss": _SIZES,
    "binary_cross_entropy": _SIZES, "binary_cross_entropy_with_logits": _SIZES,
    "softmax": ["input.softmax"], "log_softmax": ["input.log_softmax"],
    "sigmoid": ["input.sigmoid"], "tanh": ["input.tanh"], "normalize": ["input.norm"],
}
# The name PyTorch's messages use where its Python function calls another one
# (F.cross_entropy's arguments are checked by cross_entropy_loss's parser)
MESSAGE_NAMES = {"unique": "_unique2", "logsigmoid": "log_sigmoid",
                 "cross_entropy": "cross_entropy_loss", "nll_loss": "nll_loss_nd"}
# nn.functional functions that call their Tensor method: the positions in their messages
# count from after the tensor (F.softmax(x, "a"): "argument 'dim' (position 1)")
FUNCTIONAL_AS_METHODS = {"softmax", "log_softmax"}
