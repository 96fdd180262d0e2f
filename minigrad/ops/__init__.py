"""Built-in ops: each a BuiltinFunction (builtin.py), grouped by family.

    arithmetic   + - * / ** and negation        unary     exp log sin ... clamp
    linalg       @ (mm, mv, dot, batched)        reduce    sum mean max min
    shape        view reshape transpose ...     index     x[...] (views and copies)
    combine      where cat stack softmax ...    inplace   add_ mul_ ... x[...] = v
    pieces       split unbind gather repeat ...  stats     cumsum prod norm var std ...
    unary_more   log1p sinh atan softplus floor ...
    ordering     sort topk                       special   erf erfc
    division     // % div(rounding_mode=)
"""
