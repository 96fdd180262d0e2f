"""The captions of the view "apply" (lesson 04's player): Function.apply in five steps.

The events of steps 1-3 (`apply_node_made`, `apply_edges_connected`,
`apply_forward_ran`) come from tracing/narration.py; step 4 is `node_created`,
step 5 the `tensor_saved` events.  In the other views storyboard.py folds the
first three into the frame of step 4, with the captions it always had.
"""
from .model import shape_text
from .settings import text

APPLY_STEPS = ("apply_node_made", "apply_edges_connected", "apply_forward_ran")
APPLY_CAPTIONS = APPLY_STEPS + ("node_created", "tensor_saved")


def apply_caption(frame, stage, name, count):
    """The caption of a step of Function.apply; `count(lang, n, noun)` says "2 tensors"."""
    lang, event = stage.lang, frame.event
    kind = event.kind
    if kind == "apply_node_made":
        return text(lang, "cap_apply_made", function=event["function"], name=name)
    if kind == "apply_edges_connected":
        edges = len(event["inputs"])
        said = text(lang, "cap_apply_edges", name=name, edges=count(lang, edges, "edge"))
        if any(n is None for n, _ in event["inputs"]):
            said += text(lang, "cap_apply_edges_none")
        return said
    if kind == "apply_forward_ran":
        shapes = [shape_text(o["shape"]) for o in event["outputs"]]
        made = text(lang, "returns_one" if len(shapes) == 1 else "returns_many",
                    shapes=(", " if lang == "en" else "、").join(shapes))
        said = text(lang, "cap_apply_forward", outputs=made)
        if event["to_save"]:
            said += text(lang, "cap_apply_to_save", tensors=count(lang, event["to_save"],
                                                                  "tensor"))
        return said
    if kind == "node_created":
        return text(lang, "cap_apply_attached", name=name)
    saved = sum(e.kind == "tensor_saved" and not e["wrapped_number"] for e in frame.events)
    return text(lang, "cap_apply_saved", name=name, tensors=count(lang, saved, "tensor"))
