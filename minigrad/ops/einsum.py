"""torch.einsum(equation, *operands): a sum of products named by subscripts ("ij,jk->ik"
is a matrix product).  One op here; PyTorch computes it with permute, bmm and view, so
its node names depend on the equation (the numbers are the same).  The gradient of each
operand is itself an einsum: of the output's gradient with the other operands."""
import string

from .. import dtypes
from .builtin import BuiltinFunction


def parse(equation, operands):
    """(input subscripts, output subscripts) with "..." spelled out as letters and an
    implicit output ("ij,jk") made explicit (the letters used once, in order)."""
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    subscripts = inputs.split(",")
    if len(subscripts) != len(operands):
        raise RuntimeError(f"einsum(): more operands were provided than specified in the "
                           f"equation" if len(operands) > len(subscripts) else
                           "einsum(): fewer operands were provided than specified in the "
                           "equation")
    spare = [c for c in string.ascii_letters if c not in equation]
    width = max([t.ndim - len(s.replace("...", "")) for s, t in zip(subscripts, operands)
                 if "..." in s] or [0])
    dots = "".join(spare[:width])
    subscripts = [s.replace("...", dots[width - (t.ndim - len(s) + 3):]) if "..." in s else s
                  for s, t in zip(subscripts, operands)]
    if arrow:
        output = output.replace("...", dots)
    else:
        letters = "".join(subscripts)
        output = dots + "".join(sorted(c for c in set(letters) if letters.count(c) == 1
                                       and c not in dots))
    _check(subscripts, output, operands)
    return subscripts, output


def _check(subscripts, output, operands):
    """PyTorch's checks of the subscripts against the operands' dims and sizes."""
    seen = {}
    for k, (letters, t) in enumerate(zip(subscripts, operands)):
        if len(letters) != t.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                               f"({len(letters)}) does not match the number of dimensions "
                               f"({t.ndim}) for operand {k} and no ellipsis was given")
        for letter, size in zip(letters, t.shape):
            if seen.get(letter, size) != size and 1 not in (size, seen[letter]):
                raise RuntimeError(f"einsum(): subscript {letter} has size {size} for operand "
                                   f"{k} which does not broadcast with previously seen size "
                                   f"{seen[letter]}")
            seen[letter] = max(size, seen.get(letter, 1))
    for letter in output:
        if letter not in seen:
            raise RuntimeError(f"einsum(): output subscript {letter} does not appear in the "
                               "equation for any input operand")
        if output.count(letter) > 1:
            raise RuntimeError(f"einsum(): output subscript {letter} appears more than once "
                               "in the output")


class Einsum(BuiltinFunction):
    """out = Σ over the letters not in the output of the product of the operands;
    d(operand k) = einsum(g, the other operands) into operand k's letters (expanded over
    the letters only operand k has)."""

    node_name = "EinsumBackward0"

    @staticmethod
    def forward(ctx, subscripts, output, *operands):
        ctx.subscripts, ctx.output = subscripts, output
        ctx.save_for_backward(*operands)
        arrays = [t._data for t in operands]
        first = operands[0]
        return first._new(first._xp.einsum(f"{','.join(subscripts)}->{output}", *arrays))

    @staticmethod
    def backward(ctx, grad):
        operands = ctx.saved_tensors
        grads = []
        for k, (letters, x) in enumerate(zip(ctx.subscripts, operands)):
            others = [(s, t) for j, (s, t) in enumerate(zip(ctx.subscripts, operands)) if j != k]
            known = ctx.output + "".join(s for s, _ in others)
            kept = "".join(c for c in letters if c in known)
            part = Einsum.apply([ctx.output] + [s for s, _ in others], kept, grad,
                                *[t for _, t in others]) if ctx.needs_input_grad[2 + k] else None
            shape = [x.shape[i] if c in kept else 1 for i, c in enumerate(letters)]
            grads.append(None if part is None else part.reshape(shape).expand(x.shape))
        return (None, None) + tuple(grads)


def einsum(equation, *operands):
    """torch.einsum("ij,jk->ik", a, b), or with the operands in one list."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if len(operands) > 1 and operands[0].dtype is dtypes.bool:
        raise NotImplementedError('"bmm" not implemented for \'Bool\'')
    for other in operands[1:]:                   # one dtype, as PyTorch's bmm needs
        if other.dtype is not operands[0].dtype:
            raise RuntimeError(f"expected scalar type {dtypes.legacy_name(operands[0].dtype)} "
                               f"but found {dtypes.legacy_name(other.dtype)}")
    subscripts, output = parse(equation, operands)
    return Einsum.apply(subscripts, output, *operands)
