"""The real-architecture cases: target function, symptom, the cause expected first, and (for healthy
models) the known probe false alarms that belong to the probe internals, not the protocol.

Shared by tests/realworld/test_realarch.py and benchmarks/realarch.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

TARGETS = Path(__file__).parent / "targets"
HEALTHY_SYMPTOM = "about to start a long training run; checking that nothing is wrong with my model and training code"


@dataclass(frozen=True)
class Case:
    name: str
    target: str  # FILE.py[:FUNC] under targets/
    expected: str  # catalog cause id; "none" for a healthy model
    symptom: str = HEALTHY_SYMPTOM
    needs: str = "transformers"  # package the case imports ("" for torch only)

    @property
    def healthy(self) -> bool:
        return self.expected == "none"

    def target_arg(self) -> str:
        file, _, func = self.target.partition(":")
        return str(TARGETS / file) + (f":{func}" if func else "")


CASES = [
    Case("gpt2", "hf_gpt2.py", "none"),
    Case("bert", "hf_bert.py", "none"),
    Case("llama", "hf_llama.py", "none"),
    Case("t5", "hf_t5.py", "none"),
    Case("vit", "hf_vit.py", "none"),
    Case("gpt2_padded (labels=-100, model shifts)", "hf_gpt2.py:make_padded", "none"),
    Case("own_gpt (closures, tying, clipping)", "own_gpt.py", "none", needs=""),
    Case("own_lstm (seq-first, hidden state)", "own_lstm.py", "none", needs=""),
    Case("own_outputs_bf16 (dict, output object, autocast)", "own_outputs_bf16.py", "none", needs=""),
    Case("own_compiled (torch.compile wrapper)", "own_compiled.py", "none", needs=""),
    Case("clip (two towers, (B, B) logits)", "hf_clip.py", "none"),
    Case("mamba (state-space, softplus step sizes)", "hf_mamba.py", "none"),
    Case("whisper (speech encoder-decoder)", "hf_whisper.py", "none"),
    Case("own_vae (sampled latent)", "own_generative.py:make_vae", "none", needs=""),
    Case("own_simclr (contrastive loss)", "own_generative.py:make_simclr", "none", needs=""),
    Case("own_diffusion (noise and timestep drawn in forward)", "own_generative.py:make_diffusion", "none", needs=""),
    Case("own_actor_critic (policy-gradient loss)", "own_generative.py:make_actor_critic", "none", needs=""),
    Case("own_soft_targets (teacher probabilities as labels)", "own_vision_seq.py:make_soft_targets", "none", needs=""),
    Case("own_distill (KD term and hard labels)", "own_vision_seq.py:make_distill", "none", needs=""),
    Case("own_vit (patches by permute)", "own_vision_seq.py:make_vit", "none", needs=""),
    Case(
        "own_gpt: causal mask removed",
        "own_gpt.py:make_no_causal_mask",
        "mask.causal_leak",
        "training loss of my small GPT drops far lower than expected, but text sampled token by token is gibberish",
        needs="",
    ),
    Case(
        "own_gpt: heads split by reshape",
        "own_gpt.py:make_heads_reshape",
        "layout.reshape_permute",
        "after I rewrote the attention head splitting, loss still goes down but generated text got much worse",
        needs="",
    ),
    Case(
        "own_gpt: attention scale dropped",
        "own_gpt.py:make_no_attention_scale",
        "attn.unscaled_scores",
        "after I simplified the attention code the model trains more slowly and less stably than before",
        needs="",
    ),
    Case(
        "own_gpt: zero_grad missing, clipping on",
        "own_gpt.py:make_no_zero_grad",
        "optim.missing_zero_grad",
        "loss falls for a few steps, then oscillates and climbs, even though gradient clipping is on",
        needs="",
    ),
    Case(
        "own_gpt: eval mode missing",
        "own_gpt.py:make_eval_no_eval_mode",
        "mode.train_at_eval",
        "validation loss of the same checkpoint is different every time I evaluate it",
        needs="",
    ),
    Case(
        "bert: eval mode missing",
        "hf_bert.py:make_eval_no_eval_mode",
        "mode.train_at_eval",
        "validation accuracy of the same checkpoint changes between two evaluation runs",
    ),
    Case(
        "gpt2: labels shifted twice",
        "hf_gpt2.py:make_labels_shifted_twice",
        "data.label_misalignment",
        "the language model's loss plateaus far above what similar models reach; predictions look misaligned "
        "with the targets",
    ),
    Case(
        "bert: attention mask inverted",
        "hf_bert.py:make_mask_inverted",
        "mask.padding_attended",
        "since I changed how batches are collated, the classifier's accuracy on short sentences is much worse than "
        "on long ones",
    ),
    Case(
        "gpt2: padding not ignored in the loss",
        "hf_gpt2.py:make_pad_in_loss",
        "loss.padding_counted",
        "the reported loss drops much faster on batches of short sequences, and generated samples often stop early "
        "and emit pad tokens",
    ),
    Case(
        "own_vit: patches cut by reshape",
        "own_vision_seq.py:make_vit_patches_reshape",
        "layout.reshape_permute",
        "my small vision transformer trains but accuracy stays low, much worse than a CNN of the same size",
        needs="",
    ),
    Case(
        "own_sensor_cnn: (B, T, C) viewed as (B, C, T)",
        "own_vision_seq.py:make_sensor_view",
        "layout.reshape_permute",
        "my 1D CNN on accelerometer windows stays far below the GRU baseline on the same data",
        needs="",
    ),
    Case(
        "own_compiled: (B, 1) predictions against (B,) targets",
        "own_compiled.py:make_broadcast_loss",
        "shape.broadcast",
        "the compiled regressor's validation loss stays near the variance of the targets",
        needs="",
    ),
]
