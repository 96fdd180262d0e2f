"""Built-in ops: each a BuiltinFunction (builtin.py), grouped by family.

    arithmetic     + - * / and negation           unary     exp log sin ... clamp
    linalg         @ (mm, mv, dot, batched)       reduce    sum mean max min, expand
    shape          view reshape transpose ...     index     x[...] (views and copies)
    combine        where cat stack softmax ...    inplace*  add_ mul_ ... x[...] = v
    pieces         split unbind gather repeat ... stats     cumsum prod norm var std ...
    transcendental log1p expm1 sinh atan2 ...     rounding  floor ceil trunc round
    activations    leaky_relu silu gelu softplus  special   erf erfc
    ordering       sort topk median mode ...      loss      nn.functional's losses
    diagonals      diag diagonal trace            power     ** (a ** n, a ** b, n ** b)
    division       // % div(rounding_mode=)
"""
