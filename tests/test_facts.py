"""Symptom facts: numbers read against reference values, trends and relations, and what the catalog makes of them.

The sentences here are written for the tests (not taken from the corpus or the paraphrase set).
"""

from __future__ import annotations

import pytest

from debug_agent.engine import catalog
from debug_agent.engine.facts import KNOWN, classes, extract
from debug_agent.engine.pipeline import AskOptions, ask
from debug_agent.schemas import Case


def ids(text: str) -> set[str]:
    return {f.id for f in extract(text)}


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("On our 10-class task the cross-entropy sits at 2.302 for the whole run.", "loss_at_chance"),
        ("The loss is stuck at 0.6931 and never moves.", "loss_at_chance"),  # ln 2, classes not stated
        ("Perplexity hovers around 1000 with a vocabulary of 1,000 tokens.", "loss_at_chance"),
        ("Our logged accuracy reads 180% on the validation split.", "metric_impossible"),
        ("Validation accuracy is reported as 1.37 after epoch 3.", "metric_impossible"),
        ("The training loss prints 0.0000 from step one.", "loss_zero"),
        ("The KL-regularised cross-entropy loss comes out at -3.2.", "loss_negative"),
        ("Everything becomes nan on the very first batch.", "nonfinite_immediate"),
        ("It runs fine, then after about 3000 steps the loss turns into NaN.", "nonfinite_later"),
        ("Validation accuracy is 34% on our 3 classes.", "acc_at_chance"),
        ("Train accuracy 99% while validation accuracy is 51% for this binary task.", "train_fits_val_chance"),
        ("Train loss keeps falling but validation loss has been rising since epoch 12.", "train_improves_val_worsens"),
        ("Evaluating the same checkpoint twice gives two different F1 scores.", "eval_nondeterministic"),
        ("With batch size 1 the outputs look different from batches of 64.", "batch_dependent"),
        ("The prediction for one sample changes when other samples in the batch are swapped.", "others_affect_output"),
        ("Position 5 can attend to future tokens.", "future_tokens"),
        ("The gradient norm grows by orders of magnitude over a few hundred steps.", "grad_norm_grows"),
        ("Both training and validation loss plateau at a high value.", "train_poor"),
        ("Dev loss improves for two epochs, and after that it climbs steadily every epoch.", "val_worsens"),
        ("The eval script prints an accuracy that reaches 130% once the batch is larger.", "metric_impossible"),
        ("Train accuracy printed every epoch sits around 40% but the test accuracy is 78%.", "train_poor"),
        ("Samples still look rough after 80k iterations; do I just need to train longer?", "asks_train_longer"),
        ("Whatever value I set for the smoothness weight, the results are exactly the same.", "setting_no_effect"),
        ("Twelve of the recordings are in both the train and the test split.", "data_overlap"),
        ("The class a sentence gets depends on how much padding the collator adds to it.", "padding_changes_output"),
        ("After training the running_mean of each BN layer is still its initial value.", "norm_stats_unchanged"),
        ("The captions the model writes have nothing to do with the image it was shown.", "output_unrelated_to_input"),
        ("I sort the files with listdir but read the labels from a csv in its own order.", "labels_reordered_apart"),
        ("The reference run uses 300 epochs; mine stopped after 30 epochs.", "short_training"),
        ("A regressor with 2 hidden units per layer.", "tiny_capacity"),
        ("The audio arrives as int16 samples and I cast them to float and feed them in.", "raw_inputs"),
        ("The cached feature files carry modification dates from before the change.", "stale_artifacts"),
        ("The pretrained encoder weights are different after training.", "fixed_weights_changed"),
        ("The logged F1 is 0.95 but the predicted spans look wrong when I read them.", "metric_contradicts_outputs"),
        ("The loss was still decreasing when we stopped after 8 epochs.", "still_improving"),
        ("Validation loss is consistently lower than the training loss.", "val_better_than_train"),
        ("After the refactor the frozen backbone weights still change every step.", "frozen_still_change"),
        ("The learning rate is almost zero after the first epoch.", "lr_collapses"),
        ("The reported loss depends on how much padding the batch has.", "loss_depends_padding"),
        ("In the attention maps nearly all weight goes to the padded positions.", "attention_on_padding"),
        ("Test accuracy was great at epoch 50, but as the epochs increase it gets worse again.", "val_worsens"),
        ("The old loss function trains fine with the same learning rate.", "same_lr_works"),
        ("The loss per example changes with which other examples share its batch.", "sample_loss_depends_on_batch"),
        ("How many epochs until it gets past 70%?", "asks_train_longer"),
        ("Any idea how long it takes before the reward starts to climb?", "asks_train_longer"),
        ("The printed parameter count looks small, and the saved checkpoint is oddly small too.", "param_count_low"),
        ("I stopped training after the first few epochs because accuracy was flat.", "short_training"),
    ],
)
def test_fact_is_read(text: str, fact: str):
    assert fact in ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "The training loss goes down quickly and nothing crashes.",
        "Training is done after 10 epochs and the accuracy is 60%.",
        "There is no truncation anywhere in my pipeline.",
    ],
)
def test_words_of_a_program_are_not_episode_ends(text: str):
    assert "terminal_mentioned" not in ids(text)


def test_negated_examples_and_bare_differences_are_not_read():
    # "nothing odd like X or Y" negates X; a "big difference" with no split named is not a train/val gap
    assert "nonfinite" not in ids("The loss falls a little each epoch, nothing odd like nan or spikes.")
    assert "nonfinite" in ids("The loss falls a little each epoch, then it is nan.")
    assert "generalization_gap" not in ids("Why is there such a big difference between the two scripts?")
    assert "generalization_gap" in ids("There is a big difference between train and validation accuracy.")


def test_reference_values_need_a_match():
    assert "loss_at_chance" not in ids("The loss is 1.7 on our 10-class task.")
    assert "metric_impossible" not in ids("Validation accuracy is 87%.")
    assert "loss_zero" not in ids("The loss is 0.25.")
    assert "nonfinite_immediate" not in ids("After 500 steps the loss is nan.")


def test_number_of_classes_is_read_or_deduced():
    assert classes("a 5-way classifier") == 5
    assert classes("fine-tuning on CIFAR-100") == 100
    assert classes("a binary sentiment model") == 2
    assert classes("no class count here") is None


def test_each_fact_keeps_its_sentence():
    facts = extract("All good so far. Then the loss went to nan after 200 steps.")
    f = next(f for f in facts if f.id == "nonfinite_later")
    assert f.phrase == "Then the loss went to nan after 200 steps."


def test_catalog_weighs_only_known_facts_and_every_fact_is_used():
    used = {k for e in catalog.load().entries for k in e.facts}
    assert used <= set(KNOWN)
    unused = set(KNOWN) - used
    assert not unused, f"facts that no catalog entry weighs: {sorted(unused)}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Training loss keeps going down every epoch while the validation loss started rising after epoch 10.",
            "fit.overfitting",
        ),
        ("Our digit classifier's loss has been at 2.30 since the start and accuracy is at chance.", None),
        (
            "The loss was still going down steadily when I stopped after 5 epochs; samples are still blurry.",
            "fit.undertrained",
        ),
        (
            "Even on the training set the accuracy is stuck around 60%; both curves plateau at a high loss.",
            "fit.underfitting",
        ),
        ("The accuracy we log climbs to 140% halfway through training.", "metric.wrong"),
    ],
)
def test_facts_rank_the_cause(text: str, expected: str | None):
    report = ask(Case(symptom=text), AskOptions(no_probes=True))
    top3 = [h.cause_id for h in report.hypotheses[:3]]
    if expected:
        assert expected in top3
    assert "none" != report.cause_id


def test_no_probe_run_is_a_ranking_never_no_defect_found():
    text = "Please sanity-check my model before I start a long training run."
    report = ask(Case(symptom=text), AskOptions(no_probes=True))
    assert report.cause_id != catalog.load().healthy_id
    assert "No defect found" not in report.root_cause
    assert report.root_cause.startswith("No probe ran")
    assert "--target" in report.first_action and "probe" in report.first_action


def test_no_probe_first_action_names_the_separating_experiment():
    text = "After the refactor, validation accuracy differs between two evaluations of the same checkpoint."
    report = ask(Case(symptom=text), AskOptions(no_probes=True))
    top2 = [h.cause_id for h in report.hypotheses if h.cause_id != "none"][:2]
    assert set(top2) <= {h.cause_id for h in report.hypotheses[:3]}
    assert "`" in report.first_action and "predicts" in report.first_action
    assert report.first_action.startswith("To tell")


# Sentences written for these tests (not from the corpus or the paraphrase set): one per new reading.
@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "Our 5-class model reaches 100% train accuracy yet the loss will not drop below 0.905.",
            "loss_at_softmax_floor",
        ),
        ("We use AdamW with lr=0.5 on a small transformer.", "lr_value_high"),
        ("By epoch 3 the scheduler has taken the learning rate to 1e-40.", "lr_value_tiny"),
        ("Iteration 10 loss 1.9, iteration 11 loss 30, iteration 12 nan.", "loss_jumps"),
        ("Dev loss was 0.31 at epoch 5 and is 0.74 now at epoch 30.", "val_worsens"),
        ("The embedding layer gradients are ~1e3 while every other layer sits near 1e-3.", "grad_scale_spread"),
        ("The reconstruction loss is ~2500 and the kl term is ~0.02.", "loss_terms_scale_differ"),
        ("Before training, the logits of the last block are around 3e9.", "values_huge"),
        ("Sensor readings range from 0 to 40000 and go straight into the first linear layer.", "raw_inputs"),
        ("With accumulation_steps=4 the loss printed is about 4x what a single big batch gives.", "scales_with_count"),
        ("For a batch of 16 the difference tensor has shape (16, 16) before the mean.", "pairwise_shape"),
        ("The gradient norm rises linearly with the iteration count.", "grads_accumulate"),
        ("Of the 256 units in layer 3, 250 never fire on any input.", "units_dead"),
        ("The tanh units are saturated from the first batch on.", "units_saturated"),
        ("The outputs are constant right from initialization.", "from_init"),
        ("The activation variance doubles with every layer.", "grows_with_depth"),
        (
            "My GRU cannot use information from the first token of the sequence: that task stays at chance.",
            "long_range_fails",
        ),
        ("The loss goes through a numpy function before backward.", "non_torch_op"),
        ("The new consistency term is not contributing any gradient.", "term_no_gradient"),
        ("When I swap my layer for nn.LayerNorm the model trains normally.", "reference_impl_works"),
        ("With num_heads=1 the output is identical to the reference.", "heads_dependent"),
        ("The softmax output sums to 1 over the batch instead of over classes.", "sums_over_wrong_axis"),
        ("The number of valid tokens is 0 in every batch.", "nothing_counted"),
        ("The loss becomes inf because of a log of 0 in the focal term.", "math_edge"),
        ("Lowering the learning rate by 10x fixed the spikes.", "lower_lr_helps"),
        ("Raising the learning rate to 1e-3 made it finally learn.", "higher_lr_helps"),
        ("The loss is exactly the same value at every step.", "loss_identical_every_step"),
        ("I suspect the optimizer was created before the model was rebuilt.", "optimizer_setup_suspect"),
        ("The number of trainable parameters is the same as the full model.", "trainable_count_full"),
        ("Adding gradient clipping with max_norm 1.0 stabilised it.", "clipping_helps"),
        ("There are duplicated images across the train and test splits.", "data_overlap"),
        ("Deleting the cached dataset folder made the new tokenizer take effect.", "clearing_cache_helps"),
        ("The hidden state is never reset between sequences.", "state_carried"),
        ("gradcheck fails: the finite differences disagree with my backward.", "grad_check_fails"),
        ("All linear layers are initialized to zeros.", "zero_init"),
        ("We only have 300 labelled examples.", "small_dataset"),
        ("The early layers barely change while the last layer moves a lot.", "early_layers_barely"),
        ("The weights change only in the 8th decimal place each step.", "tiny_updates"),
        ("The trained model scores the same as zero-shot.", "no_better_than_pretrained"),
        (
            "From epoch 2 on, two training passes over one batch give identical losses even with dropout.",
            "train_deterministic",
        ),
        ("The script logs recall 0.9, but recomputing it by hand gives 0.4.", "metric_recomputed_differs"),
        ("The logged learning rate stays at 0.01 for the entire run.", "lr_never_changes"),
        ("Epoch one trains with finite losses, then in the third epoch everything is NaN.", "nonfinite_later"),
        ("Character error rate on the train set flattened at 30% long ago; the train CER stalls.", "train_poor"),
        ("The F1 of one checkpoint differs when I change the eval batch size to 50.", "metric_batch_size_dependent"),
        ("Outputs are (B, 1) and the targets are (B,), trained with MSELoss.", "shape_trailing_one"),
        ("I kept ignoring a UserWarning about mismatched sizes in the loss.", "size_warning"),
        ("Permuting the input points does not just permute the per-point features.", "not_equivariant"),
        ("My samples look far blurrier than the released checkpoint's samples.", "worse_than_reference"),
        ("Both losses are still moving when the job ends.", "still_improving"),
        ("The head returns softmax outputs and I train it with NLLLoss.", "probs_into_logloss"),
        ("Adding dropout and weight decay takes validation from 60% to 72%.", "regularisation_helps"),
        ("Its samples are nearly identical to training images.", "memorises_training"),
        ("The split is by patient, so no patient is on both sides.", "split_by_group"),
        ("Batch loss is noisy, but the epoch average goes down steadily.", "noisy_but_improving"),
        ("Returns differ between seeds, but all 5 seeds solve the task in the end.", "seed_variance"),
        ("The loss starts at 2.30 with 10 classes before any training.", "loss_starts_at_chance"),
        ("I use Adam at 1e-7 for pretraining.", "lr_value_low"),
        ("Restarting the process for each file gives the good score every time.", "order_dependent"),
        ("Logits are (B, T, C) and I reshaped them to (B, C, T) for the loss.", "reshape_reorders_axes"),
        ("I weight the [B] importance vector against the [B, 1] unreduced loss.", "shape_trailing_one"),
        ("I take the argmax, one-hot it and compute a dice loss on that.", "argmax_in_loss"),
        ("The ReduceLROnPlateau scheduler gets the loss of every batch.", "scheduler_per_batch"),
        ("I shuffle all rows and then split 80/20 on the sensor time series.", "shuffled_time_split"),
        ("A separate test set collected later also gives 95%.", "independent_test_agrees"),
        ("The masked loss is divided by the mask sum.", "mask_sum_division"),
        ("Every so often a single step logs loss = nan.", "nan_sporadic"),
        ("It happens more often when I lower the max sequence length.", "truncation_matters"),
        ("Train and validation loss level off together at the same value.", "train_val_plateau_together"),
        ("The regressor returns exactly 0.0 for every sample.", "outputs_all_zero"),
        ("With another random seed it sometimes trains normally.", "seed_dependent_failure"),
        ("The logged gradient norm per step reads 0.5, 1.0, 1.5, 2.0 on a fixed batch.", "grads_accumulate"),
        ("When I raise the context length from 128 to 1024, the loss turns nan within the epoch.", "length_blows_up"),
        ("Loss is 3.1 on the first batch, and from the second step on it is nan.", "nonfinite_immediate"),
        ("My task loss sits near 0.4. The penalty term starts at about 2e3.", "loss_terms_scale_differ"),
        ("Is this normal? I switched from the large config to the smallest variant.", "small_model"),
        ("The outputs look bad after 3 epochs. How many epochs did you train it?", "asks_train_longer"),
    ],
)
def test_new_fact_is_read(text: str, fact: str):
    assert fact in ids(text), sorted(ids(text))


def test_negated_mentions_and_trends_do_not_count():
    assert "mentions_batchnorm" not in ids("A small MLP with no batch norm and no dropout.")
    assert "mentions_dropout" not in ids("The model has no dropout at all.")
    assert "val_worsens" not in ids("The validation loss keeps falling and never turns up.")
    assert "loss_zero" not in ids("The training loss is near 0 by epoch 50.")
    assert "loss_at_softmax_floor" not in ids("The loss is 0.97 after the first epoch.")  # no class count, no floor
    assert "nonfinite" not in ids("No NaNs, no errors, the run finishes.")
    assert "user_says_overfits" not in ids("It doesn't seem to overfit.")
    assert "loss_unstable" not in ids("There are no spikes and nothing is unstable.")
    assert {"nonfinite", "mentions_dropout"} <= ids("Loss goes to NaN in a model with dropout 0.1.")
    assert "nonfinite_immediate" not in ids("The first epoch runs fine; early in the second epoch the loss is NaN.")
    assert "train_improves" not in ids("The training loss itself stopped improving weeks ago.")
    assert "healthy_request" not in ids("Sanity check: pooling should ignore order, yet reordering changes it.")
    assert "loss_jumps" not in ids("At iteration 900 the loss was 2.3 and at iterations 1900-2000 it is 2.0.")
    assert "good_then_worse" not in ids("The loss falls fast at first, but then it stays flat around 0.3.")
    assert "length_blows_up" not in ids("I increased the batch size and the loss went to nan.")
    assert "small_model" not in ids("I switched to a smaller batch size of 16.")
    assert "loss_jumps" not in ids("After 40 epochs the train loss is 0.03 and the val loss 1.2.")  # two splits
    assert "nonfinite" not in ids("It flattens at a high value; there is no sign of divergence or NaN.")
    assert "mentions_dropout" not in ids("Without batchnorm or dropout the model still trains.")
    assert "nonfinite" in ids("There is no dropout here, NaN appears at step 5.")
    assert "generalization_gap" not in ids("After 40 epochs the train loss is 0.45 and the val loss 0.52.")


@pytest.mark.parametrize(
    ("text", "fact", "read"),
    [
        ("I logged the per-layer gradient norms after backward and most of them come out at 3e-8.", "grad_small", True),
        ("With weight decay 1e-5 the gradients look normal.", "grad_small", False),
        ("The gradient norm for the encoder is about 0.8.", "grad_small", False),
        ("I saved the adapter matrices at initialisation and again after two epochs, and they are exactly the same.",
         "weights_static", True),
        ("I compared the prompt embeddings at step 0 and after 5k steps: exactly identical.", "weights_static", True),
        ("I compared the accuracy at step 0 and after 5k steps: exactly the same.", "weights_static", False),
        ("The row norms of the projected patches are nowhere near 1, though I normalise them.", "norms_not_unit", True),
        ("The loss is nowhere near 1 after the warm-up.", "norms_not_unit", False),
        ("As a sanity check I printed the mask and it is all zeros for the second sample.", "healthy_request", False),
        ("Could you sanity-check my training loop before I launch the big run?", "healthy_request", True),
        ("On the train split itself it never gets to more than 70% accuracy.", "train_poor", True),
        ("Why can't it fit the training set when the model has 10M parameters?", "train_poor", True),
        ("Why can't it fit the training set when the model has 10M parameters?", "train_improves", False),
        ("On the train split it gets to 99% within two epochs.", "train_poor", False),
        ("Train and validation losses are close to each other, both around 1.2.", "train_val_plateau_together", True),
        ("My val accuracy is always exactly equal to the train accuracy.", "metric_copies_other_split", True),
        ("The val accuracy is close to the train accuracy, a point below it.", "metric_copies_other_split", False),
        ("Per token the weights over the 5 experts add up to anything between 0.1 and 0.4, while per expert the "
         "weights over the 32 tokens add up to exactly 1.", "sums_over_wrong_axis", True),
        ("If I edit values only in the test period of the raw file, the normalised training windows are no longer "
         "the same numbers.", "fitted_on_all_data", True),
        ("I changed the validation set and the training loss curve changed a bit, which is noise.",
         "fitted_on_all_data", False),
        ("Looking at the encoder grads: for the first quantizer there is a gradient, for the others it's all zeros.",
         "grad_none", True),
        ("The gradients look fine, they're all in the 1e-2 range.", "grad_none", False),
        ("Could you check the model and the loss before I spend time on tuning?", "healthy_request", True),
        ("As a sanity check I printed the mask and it is all zeros for the second sample.", "healthy_request", False),
        ("The outputs are nonsense for the same sentences that looked good in validation.", "data_overlap", False),
        ("I found the same images in train and in test.", "data_overlap", True),
        ("Per token the weights over the 5 experts add up to exactly 1, as they should.", "sums_over_wrong_axis", False),
        ("A worker that just finished keeps its old LSTM hidden state into the new episode.", "state_carried", True),
        ("A worker that just finished starts the new episode with a zero LSTM hidden state.", "state_carried", False),
        ("The actions at the first step of a new episode change when I alter observations from the previous "
         "episode.", "order_dependent", True),
        ("The actions at the first step of a new episode are the same whatever the previous episode held.",
         "order_dependent", False),
        ("My own F1 computed from the saved predictions is about 5 points higher than what the script reports.",
         "metric_recomputed_differs", True),
        ("My own F1 computed from the saved predictions matches what the script reports.",
         "metric_recomputed_differs", False),
        ("Two checkpoints with clearly different score rankings get exactly the same AUC.",
         "metric_contradicts_outputs", True),
        ("Two checkpoints with clearly different score rankings get clearly different AUCs.",
         "metric_contradicts_outputs", False),
        ("With a shallower stack the same script is well behaved.", "shallower_works", True),
        ("With a deeper stack the same script is well behaved.", "shallower_works", False),
        ("After many epochs the cross-entropy is still essentially log(number of classes).", "loss_at_chance", True),
        ("After many epochs the cross-entropy is far below log(number of classes).", "loss_at_chance", False),
        ("The loss moves in the fourth decimal place per epoch.", "loss_slow", True),
        ("The loss is printed to the fourth decimal place per epoch.", "loss_slow", False),
        ("The saved state_dict has only the conv weights, nothing for the gate weights.", "param_count_low", True),
        ("The state_dict loads fine and I have nothing for now.", "param_count_low", False),
        ("On sequences the model has not seen the loss is no better than at the start.", "generalization_gap", True),
        ("The model has not seen better days than this.", "generalization_gap", False),
        ("I only have a dozen examples for now.", "small_dataset", True),
        ("A ResNet that has no BatchNorm, trained with SGD.", "norm_absent", True),
        ("A ResNet with BatchNorm after every conv.", "norm_absent", False),
        ("I tried changing the learning rate a bit but it keeps happening.", "lr_no_help", True),
        ("I tried changing the learning rate and it fixed it.", "lr_no_help", False),
        ("I rewrote the tokenizer's lowercasing: the loss curve is the same as\nbefore.", "preprocessing_edited", True),
        ("I rewrote the tokenizer's lowercasing: the loss curve now falls much faster.", "preprocessing_edited", False),
    ],
)
def test_readings_of_this_push_and_their_quiet_twins(text: str, fact: str, read: bool):
    assert (fact in ids(text)) is read, sorted(ids(text))


def test_a_validation_loss_ten_times_the_training_loss_is_a_gap_and_its_rise_is_read():
    text = "The training loss reaches 2e-4 while the loss on the held-out points sits near 0.3 and creeps up."
    assert {"generalization_gap", "val_worsens"} <= ids(text), sorted(ids(text))


# Short reports written for these tests in a reporter's words (not from the corpus or the paraphrase set).
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I converted the input from NHWC to NCHW with .view instead of .permute; accuracy halved.",
            "layout.reshape_permute",
        ),
        ("The loss tensor before the mean has shape (64, 64) for a batch of 64 examples.", "shape.broadcast"),
        (
            "For 10 classes the training loss flattens at 1.46 even though training accuracy is 100%.",
            "loss.double_activation",
        ),
        (
            "The loss spikes and becomes nan after a few hundred steps; "
            "dividing the learning rate by 10 makes it go away.",
            "optim.lr_too_high",
        ),
        (
            "After 50 epochs the weights have barely moved from their initial values; the learning rate is 1e-7.",
            "optim.lr_too_low",
        ),
        (
            "I set requires_grad=False on the backbone, yet after training its weights differ from the checkpoint.",
            "optim.frozen_params_train",
        ),
        ("Changing the tokens after position 10 changes the model's output at position 5.", "mask.causal_leak"),
        (
            "The gradient norm grows to 1e8 within a few steps of my RNN and the loss becomes nan; clipping fixes it.",
            "grad.exploding",
        ),
        ("gradcheck fails: my hand-written backward disagrees with finite differences.", "autograd.wrong_backward"),
        (
            "The logged learning rate stays at 0.1 for the entire run; the decay at epoch 30 never happens.",
            "optim.scheduler_misstep",
        ),
        (
            "The model's state_dict is bit-for-bit identical after an epoch of training, "
            "though gradients are non-zero.",
            "optim.params_not_updated",
        ),
        (
            "Training loss falls much faster after epoch 1; my validation function calls model.eval() "
            "and never switches back.",
            "mode.eval_at_train",
        ),
        ("I froze the embeddings but their values drift during fine-tuning.", "optim.frozen_params_train"),
    ],
)
def test_reported_facts_rank_the_cause_first(text: str, expected: str):
    report = ask(Case(symptom=text), AskOptions(no_probes=True))
    assert report.cause_id == expected, [h.cause_id for h in report.hypotheses[:3]]


def test_words_only_silence_raises_the_supported_cause_and_leaves_probe_runs_alone():
    from debug_agent.engine.evidence import Ledger
    from debug_agent.schemas import Observation

    cat = catalog.load()
    assert cat.silent_penalty > 0
    obs = Observation(kind="observation", source="symptom", text="t")
    words = Ledger(cat)
    words.add("grad.exploding", "fact", 2.0, obs)
    probed = Ledger(cat)
    probed.add("grad.exploding", "fact", 2.0, obs)
    probed.add("grad.exploding", "probe", 0.5, obs)
    quiet = cat.get("optim.lr_too_low")
    assert words.score(quiet) == pytest.approx(probed.score(quiet) - cat.silent_penalty)
    assert words.score(cat.get("grad.exploding")) == pytest.approx(probed.score(cat.get("grad.exploding")) - 0.5)
    assert Ledger(cat).score(quiet) == pytest.approx(probed.score(quiet))  # nothing read: no silence to count


def test_paraphrase_split_is_deterministic_stratified_and_about_half():
    import importlib.util
    from collections import Counter
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "paraphrases" / "split.py"
    spec = importlib.util.spec_from_file_location("paraphrase_split", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    first, again = mod.load(), mod.load()
    assert [c["split"] for c in first] == [c["split"] for c in again]
    dev = Counter(c["cause"] for c in first if c["split"] == "dev")
    test = Counter(c["cause"] for c in first if c["split"] == "test")
    assert set(dev) == set(test)
    assert all(0 <= dev[k] - test[k] <= 1 for k in dev)  # per cause: half each, DEV takes the odd one
    assert abs(sum(dev.values()) - sum(test.values())) <= len(dev)
    with pytest.raises(ValueError):
        mod.half("train")


def test_a_metric_recounted_by_hand_that_differs_is_read_after_the_logged_one():
    text = "The logger says 0.874 on the test split, while recounting the hits by hand comes out at 0.881."
    assert "metric_recomputed_differs" in ids(text), sorted(ids(text))
    assert "metric_recomputed_differs" not in ids("Accuracy is 0.87 on test, and by hand I also get 0.87.")


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("The nightly sampler callback calls netG.eval() and writes a grid to disk.", "eval_called_in_routine"),
        ("My encoder blocks live in a plain Python list in __init__.", "plain_list_modules_mentioned"),
        ("Both curves are still steadily descending when the budget runs out.", "still_improving"),
        ("After 20 epochs the conv weights are the same as at initialisation.", "weights_static"),
        ("model.parameters() gives 40k but I expected around 2M.", "param_count_low"),
        ("We split the scans randomly over slices; each patient has about 200 of them.", "split_ignores_groups"),
        ("A hash of the encoder weights hasn't changed since step 0.", "weights_static"),
        ("The fine-tuned samples are pixel-identical to the base model's.", "no_better_than_pretrained"),
        ("Plain SGD at lr 5e-6, and the loss is barely moving after a day.", "lr_value_low"),
        ("Plain SGD at lr 5e-6, and the loss is barely moving after a day.", "loss_slow"),
        ("Printing out.softmax(-1).sum(0) gives exactly ones for every action.", "sums_over_wrong_axis"),
        ("The tensorboard curve stays flat, but the loss I print keeps falling.", "metric_recomputed_differs"),
        ("BLEU reads 0.91 on dev, but the translations are clearly wrong.", "metric_contradicts_outputs"),
        ("The critic loss just jumps around. However, the return keeps getting better.", "noisy_but_improving"),
        ("Each new dialogue starts as if it were continuing the previous one.", "order_dependent"),
        ("The LSTM state is kept across requests in the serving worker.", "state_carried"),
        ("The loss climbs over each epoch and snaps back down at the start of the next one.", "grad_resets_per_epoch"),
        ("Val loss went from 3.1 to 2.4 in ten epochs; should we just train for more?", "asks_train_longer"),
        ("It tops out at 0.3 R2, for the train rows and the held-out rows alike.", "train_val_plateau_together"),
        ("I tried lrs from 1e-5 to 1e-1 and the fit is the same straight line.", "lr_no_help"),
        ("I tried bigger batches and up to 5000 epochs, the curve never bends.", "longer_no_help"),
        ("The printed lr is about 3e-9 by epoch 5 although I set 1e-3 with a slow decay.", "lr_collapses"),
        ("With the relabelled csv the metrics are identical to the previous week's run.", "edits_no_effect"),
        ("Setting dropout to 0.1 or 0.7 gives bit-identical training losses with one seed.", "train_deterministic"),
        ("Right before backward the weight's .grad is already non-zero on every step.", "grads_accumulate"),
        ("The critic's gradients are zeroed once before the loop over episodes.", "grads_accumulate"),
        ("valid_mask.sum() returns tensor(0) for the new split.", "nothing_counted"),
        ("On the training images it is nearly perfect, but on images it hasn't seen it fails.", "generalization_gap"),
        ("Step losses are spiky, 0.3 to 1.1. But the moving average falls every epoch.", "noisy_but_improving"),
        ("At init every query attends to a single image patch, scores in the hundreds.", "attention_saturated"),
        ("After the G step the discriminator's weights also changed, by hashing.", "fixed_weights_changed"),
        ("To keep the tokenizer encoder frozen I just call encoder.eval() once.", "eval_used_to_freeze"),
        ("In the env loop the GRU state is initialised once before all episodes.", "state_carried"),
        ("The first few actions after a reset depend on how the previous episode ended.", "order_dependent"),
        ("I call backward on every mini batch and step the optimizer every 8 of them.", "grad_accum"),
        ("The context vector is ctx = torch.tensor(att.tolist()) since dtypes clashed.", "tensor_rebuilt_from_values"),
        ("The ranker takes the argmax ids and feeds them to the second encoder.", "argmax_in_loss"),
        ("Each predicted token equals the target token one position later.", "labels_shifted"),
        ("Then r = h.tolist() goes into the scorer.", "non_torch_op"),
        ("The min-max scaler is fitted on the whole dataset, then I split 90/10.", "fitted_on_all_data"),
        ("Hourly energy forecasting with lagged loads and a random 70/30 split.", "shuffled_time_split"),
        ("For each class I take the softmax over the flattened H*W map.", "sums_over_wrong_axis"),
        ("The logged score is 12, but when I watch the agent it wins every game.", "metric_contradicts_outputs"),
    ],
)
def test_setup_fact_is_read(text: str, fact: str):
    assert fact in ids(text), sorted(ids(text))


def test_a_routine_that_never_calls_eval_is_not_one_that_does():
    assert "eval_called_in_routine" not in ids("I forgot model.eval() in my validation loop.")
    assert "eval_called_in_routine" not in ids("The validation step never calls model.eval().")
    assert "lr_value_low" not in ids("Adam at lr 5e-6 for fine-tuning BERT, standard.")


def test_a_range_is_not_a_negative_score_and_the_split_is_the_one_nearest_its_number():
    text = "The net gets 97-98% training accuracy but validation accuracy stays at 61-64%."
    found = {f.id: f for f in extract(text)}
    assert "metric_impossible" not in found and "val_better_than_train" not in found
    assert found["generalization_gap"].phrase == "training 98% vs validation 61%"


def test_validation_ahead_of_training_with_augmentation_on_the_training_side_only_is_explained():
    text = "Val loss is lower than train loss all run. We use cutmix and dropout 0.4 on the training side only."
    assert "val_ahead_explained" in ids(text)
    assert "val_ahead_explained" not in ids("Val loss is lower than train loss all run. We use no augmentation.")


def test_whole_text_readers_join_a_layout_and_a_softmax_and_a_text_models_batching():
    assert "softmax_over_spatial_axis" in ids("Logits are (B, C, H, W). Then probs = torch.softmax(logits, dim=-1).")
    assert "softmax_over_spatial_axis" not in ids("Logits are (B, C, H, W). Then probs = torch.softmax(logits, dim=1).")
    text = "My own transformer tagger: the output for one sentence differs when batched with longer ones."
    assert "batched_text_differs" in ids(text)
    assert "batched_text_differs" not in ids(text + " The model uses BatchNorm after each block.")


def test_a_check_with_nothing_observed_is_told_from_one_that_describes_a_plateau():
    assert "nothing_observed" in ids("Before a week-long run: can you confirm nothing is wrong with my model code?")
    assert "nothing_observed" not in ids("Is this normal? The loss stays flat around 0.4 from step 300 on.")


def test_a_quoted_loop_that_clears_no_gradient_is_read_across_its_semicolons():
    assert "loop_without_zero_grad" in ids("Per batch: y = net(x); l = mse(y, t); l.backward(); sgd.step(). It drifts.")
    assert "loop_without_zero_grad" not in ids("Per batch: sgd.zero_grad(); l.backward(); sgd.step(). It drifts.")


def test_weights_that_did_not_change_are_not_weights_that_changed():
    assert "fixed_weights_changed" not in ids("The backbone weights haven't changed since loading.")


def test_a_loss_that_freezes_at_a_value_is_not_a_frozen_layer_and_lowering_the_lr_is_not_a_collapse():
    assert "freeze_mentioned" not in ids("The loss just freezes around 0.8 after epoch two.")
    assert "freeze_mentioned" in ids("I freeze the encoder and train the head.")
    assert "lr_collapses" not in ids("With the lr lowered to 0.01 it still gets worse after the first epoch.")


def test_the_split_named_after_a_number_counts_when_none_comes_before():
    text = "Frame accuracy sits around 45% on the training data and no longer moves."
    assert "train_poor" in ids(text), sorted(ids(text))


def test_weights_meant_to_stay_fixed_are_an_expectation_not_an_observation():
    assert "weights_static" not in ids("The other weights of the embedding are meant to stay exactly as they are.")
    assert "weights_static" in ids("The other weights of the embedding stay exactly the same after training.")


def test_two_checkpoints_a_few_thousand_steps_in_are_a_short_run_and_a_small_saved_model_is_small():
    assert "short_training" in ids("At iteration 1.5k the loss was 0.8 and at 3k it is 0.79.")
    assert "short_training" not in ids("At step 150k the loss was 0.8 and at 300k it is 0.79.")
    assert "short_training" in ids("The run has processed about 0.2 epochs so far.")
    assert "short_training" in ids("The loss went from 2.3 to 2.2 and then I stopped it.")
    assert "short_training" not in ids("At step 50000 the loss was 1.1 and at step 90000 it is 0.9.")
    assert "small_model" in ids("My checkpoint is only 4 MB on disk, which seems tiny for so much data.")
    assert "small_model" not in ids("The checkpoint is 400 MB on disk.")


def test_a_bare_percentage_after_a_split_word_in_an_accuracy_sentence_is_that_splits_score():
    text = "It reaches 98% accuracy on the training images, but on the held-out photos it only gets about 55%."
    assert "generalization_gap" in ids(text), sorted(ids(text))
    assert "generalization_gap" not in ids("Accuracy is 90% on training; I keep 20% of the data for validation.")


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Test accuracy is the same as the training accuracy to the third decimal.", "val_equals_train"),
        ("Inside my training loop model.training prints False.", "train_mode_flag_false"),
        ("Dropout 0 and dropout 0.3 give exactly the same loss, seed fixed.", "train_mode_flag_false"),
        ("The running_var buffers are updated during evaluation.", "running_stats_change_in_eval"),
        ("In a fresh script I load it, call model.eval() and get 91% on the same split.", "eval_mode_elsewhere_better"),
        ("The predicted labels land one position after the word they belong to.", "labels_shifted"),
        ("Tensorboard logs a reward of 900, but when I watch the policy play it fails.", "metric_contradicts_outputs"),
        ("Dev F1 hits its best value at epoch 4 and then drops every epoch after.", "val_worsens"),
        ("The predicted values of the critic keep growing over the run.", "value_estimates_grow"),
        ("The MSE part is around 1e4 while the KL part is around 1.", "loss_terms_scale_differ"),
    ],
)
def test_more_facts_of_modes_metrics_and_labels_are_read(text: str, fact: str):
    assert fact in ids(text), sorted(ids(text))


def test_a_batch_size_after_an_accuracy_word_is_not_an_accuracy():
    assert "metric_impossible" not in ids("Test accuracy depends on the batch size: bs=512 gives 81%, bs=4 70%.")
    assert "eval_mode_set" not in ids("In a fresh script I load the checkpoint, call model.eval() and get 91%.")


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        # Keras-style progress lines name their splits by key prefix
        (
            "Epoch 40/40 - loss: 0.0031 - accuracy: 0.9990 - val_loss: 1.7702 - val_accuracy: 0.6120",
            "generalization_gap",
        ),
        ("Swapping in a couple of other learning rates does not move the plateau at all.", "lr_no_help"),
        ("Tripling the number of epochs didn't change the final score.", "longer_no_help"),
        ("Training accuracy is roughly the same as validation accuracy, both near 60%.", "train_val_plateau_together"),
        ("It scores the same ~64% on the training images and on fresh ones.", "train_val_plateau_together"),
        ("Is 0.71 what I should expect for this dataset?", "asks_if_result_expected"),
        ("My forecaster's validation error is practically perfect.", "too_good"),
        ("The predicted series looks exactly like the real one, just lagging by one step.", "labels_shifted"),
        ("The error sits at exactly the same value after step 300.", "loss_flat"),
        ("推理的输出全是0，训练了很多轮也一样。", "outputs_all_zero"),
        ("Weights of 1.0, 0.1 and 0 on the KL term all give identical gradient norms in the encoder.",
         "scale_ignored_by_backward"),
        ("The AMP grad scaler does not seem to affect the custom loss part.", "scale_ignored_by_backward"),
        ("We only collected ~20 imgs per class for the retrain.", "small_dataset"),
        ("Logging the softmax weights of my pooling layer, they are always exactly 1.0.", "weights_all_one"),
        ("The train loss keeps decreasing after epoch 30, but the validation F1 doesn't improve any more.",
         "val_stalls_train_improves"),
        ("Changing the weight of the perceptual term from 1 to 20 doesn't change anything.", "setting_no_effect"),
        ("When I compute the F1 myself from the saved predictions I get a lower number than the logged one.",
         "metric_recomputed_differs"),
        ("Error is 0.3 on the training points themselves and about the same on the held-out ones.",
         "train_val_plateau_together"),
        ("Train accuracy 100%, validation accuracy 88%, and it stays there.", "generalization_gap"),
    ],
)
def test_log_lines_and_plain_readings_are_read(text: str, fact: str):
    assert fact in ids(text)


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("Epoch 12/300 - loss: 0.0008 - accuracy: 1.0000 - val_loss: 0.41 - val_accuracy: 0.8750", "short_training"),
        ("Epoch 12/300 - loss: 0.0008 - accuracy: 1.0000 - val_loss: 0.41 - val_accuracy: 0.8750", "loss_jumps"),
        ("Our test accuracy ends up about 2.5 points under the published table.", "metric_impossible"),
        ("At the [MASK] positions the model mostly predicts the same token.", "terminal_mentioned"),
        ("Training accuracy plateaus at 97% while validation sits at 8%.", "train_poor"),
        ("Training accuracy plateaus at 97% while validation sits at 8%.", "loss_flat"),
        ("Raising the loss weight to 10 gives larger gradients, as expected.", "scale_ignored_by_backward"),
        ("Train accuracy 92%, validation accuracy 84%.", "generalization_gap"),
        ("We have 500 images per class from the public set.", "small_dataset"),
        ("Predictions are poor compared with the L-BFGS version on the same data: the loss jumps around.",
         "eval_nondeterministic"),
        ("Attention weights look fine, the largest is about 0.4 and they sum to 1.", "weights_all_one"),
        ("I computed the accuracy over the whole test set in one pass.", "fitted_on_all_data"),
        ("I tried Adam vs SGD, dropout, batch size, more epochs: nothing gets the loss below 0.2.", "batch_dependent"),
        ("My training loss does not seem to decrease after the first epoch.", "train_improves"),
    ],
)
def test_log_numbers_and_differences_are_not_misread(text: str, absent: str):
    assert absent not in ids(text)


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("After 15 more epochs the valid loss started climbing above the train loss.", "val_worsens"),
        ("Training accuracy got to 99.1% but my held-out test set only gives 89.5%.", "generalization_gap"),
        ("About 90k iterations in, the config has num_iter = 1000000.", "short_training"),
        ("The loss is still creeping down slowly.", "still_improving"),
        ("After a day it doesn't look converged yet.", "still_improving"),
        ("w_lat = 1, 10 and 100 give bit-identical generator weights after an epoch.", "setting_no_effect"),
        ("With 3 classes the cost sits at 1.1 after the first epoch.", "loss_at_chance"),
        ("Accuracy hovers between 0.35 and 0.5 on both training and test data.", "train_val_plateau_together"),
        ("The predicted probabilities all land between 0.5 and 0.73, nothing below.", "outputs_in_sigmoid_band"),
        ("700 iterations in, the loss sits at 5.1.", "short_training"),
        ("The resnet models from the same script train perfectly with the same settings.", "same_lr_works"),
        ("Eval loss drops way faster and by epoch 2 it's sitting well below train loss.", "val_better_than_train"),
        ("I have about 96,000 iterations so far and the samples are still blurry.", "short_training"),
        ("The lr in tensorboard is a flat line at 1e-4 although my config has lr_decay 0.999875.", "lr_never_changes"),
        ("With weight_decay=0 the encoder stays bit-identical.", "fixed_weights_changed"),
        ("The loss jumps around so I stopped after 10 epochs; AP is 55 against 70.", "short_training"),
        ("A one-layer model gets high training accuracy fast, but on the dev set accuracy stays almost constant.",
         "val_stalls_train_improves"),
        ("Train accuracy hits 100%, then val accuracy just stays at 98.7%.", "val_stalls_train_improves"),
    ],
)
def test_fastai_split_names_result_gaps_and_planned_totals_are_read(text: str, fact: str):
    assert fact in ids(text), sorted(ids(text))


def test_a_validation_loss_that_climbs_is_not_a_training_loss_that_climbs():
    assert "train_loss_rises" not in ids("The valid loss started climbing after epoch 15.")
    # a gap of 92% against 84% is two error rates of 8% and 16%: not far apart
    assert "generalization_gap" not in ids("Train accuracy 92%, validation accuracy 84%.")
    assert "short_training" not in ids("It trained 90k iterations, the same as num_iter = 90000 in the config.")


def test_a_swept_setting_is_not_a_loss_series_and_frozen_weights_staying_put_is_no_symptom():
    assert "loss_jumps" not in ids("Tuning the latent loss weight: w_lat = 1, 10 and 100 after an epoch give the same.")
    assert "setting_no_effect" not in ids("Dropout 0.1 and 0.3 give bit-identical loss curves with the same seed.")
    assert "weights_static" not in ids("The frozen layers' conv weights are identical before and after training.")
    assert "train_val_plateau_together" not in ids("Accuracy is 99% from the first epoch on both train and val.")
    assert "outputs_in_sigmoid_band" not in ids("Dropout is 0.5 and the output layer has 0.73 million weights.")
    assert "short_training" not in ids("Loss spikes every 700 iterations in a row of 3.")
    assert "shuffled_time_split" not in ids("The set is 800 images; I shuffle and split 70% train / 30% dev.")
    assert "shuffled_time_split" in ids("Daily sales rows: I shuffle and split 80/20 for validation.")
    assert "looks_scrambled" not in ids("I interleave the two datasets with the 'over' strategy.")


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Y = 2*x1 - x2 + 0.3*x1*x2 with an interaction, fitted by nn.Linear(2, 1); the loss levels off.",
         "linear_fit_nonlinear"),
        ("The preprocessing step finished in a second this time, it used to take minutes.", "preprocessing_instant"),
        ("The logged learning rate goes up by one small notch per epoch.", "lr_moves_per_epoch"),
        ("If I add some extra rows to the file, the training features themselves change.", "fitted_on_all_data"),
        ("A user's first score depends on which user happened to be in that slot before it.", "order_dependent"),
        ("Shouldn't the hidden state be reset when a new sequence starts?", "state_carried"),
        ("The embedding table in my checkpoint is different from the vectors file I loaded.", "fixed_weights_changed"),
        ("The attention rows don't look like distributions, their totals go from 0.6 to 1.4.", "probs_not_normalised"),
        ("Val accuracy changes with the validation dataloader batch size: 0.88 at 16, 0.90 at 64.",
         "metric_batch_size_dependent"),
    ],
)
def test_facts_read_on_the_blind_batch_t_are_read_in_other_words(text: str, fact: str):
    assert fact in ids(text), sorted(ids(text))


def test_readings_of_batch_t_stay_quiet_on_their_twins():
    assert "loss_jumps" not in ids("The loss saturates at 0.17 and the prediction for [4,5] is off.")
    assert "linear_fit_nonlinear" not in ids("An MLP with a hidden ReLU layer fits x1*x2; nn.Linear(16, 1) heads it.")
    assert "eval_nondeterministic" not in ids("Same model code, same splits, only the data loader differs.")
    assert "new_data_worse" not in ids("On the unseen language it is two points worse than the paper reports.")
    assert "group_overlap" not in ids("Same user, same item, a different previous session gives a different top-5.")
    assert "group_overlap" in ids("The same patients appear in both train and validation.")
    assert "lr_moves_per_epoch" not in ids("The loss goes up a bit each epoch while the lr stays at 1e-4.")


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("When I redraw the validation split, my standardised train features change as well.", "fitted_on_all_data"),
        ("Train accuracy is 99%. On the held-out photos it is far lower.", "generalization_gap"),
        ("The loss has pretty much stopped moving for hours, it hovers around 2.1.", "train_poor"),
        ("I printed model.training in the loop and it was always False during every training step.",
         "train_mode_flag_false"),
        ("After two epochs every BN layer still reports num_batches_tracked 0.", "norm_stats_unchanged"),
        ("Training 3x longer gives exactly the same accuracy.", "longer_no_help"),
        ("Top-1 error goes from 24% to 31% depending on the eval batch size alone.", "metric_batch_size_dependent"),
        ("The best epoch was selected on the test set and that number is what we report.", "selected_on_test"),
        ("The learning rate never got above 3e-4 although I configured 1e-3.", "lr_never_reaches_peak"),
        ("Logistic regression on the two moons data tops out at 88%.", "linear_fit_nonlinear"),
    ],
)
def test_facts_read_on_the_blind_batches_u_and_v_are_read_in_other_words(text: str, fact: str):
    assert fact in ids(text), sorted(ids(text))


def test_readings_of_batches_u_and_v_stay_quiet_on_their_twins():
    assert "group_overlap" not in ids("On held-out images of the same people it's much lower.")
    assert "eval_nondeterministic" not in ids("Five runs with different seeds give 0.70 to 0.74.")
    assert "still_improving" not in ids("The lr warms up slowly and it was still rising when training ended.")
    assert "still_improving" in ids("The validation loss was still falling when training ended.")
    assert "generation_bad" not in ids("The samples are gibberish; I think the model is underfitting, loss is 1.6.")
    assert "linear_fit_nonlinear" not in ids("An MLP with two hidden layers on the moons data reaches 99%.")
    assert "selected_on_test" not in ids("The checkpoint is picked on the validation split and then tested once.")
    assert "lr_never_reaches_peak" not in ids("The loss never got above 2.0 after the first epoch.")


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Exact-match accuracy is 0.0 on the dev set, for every checkpoint.", "metric_reads_zero"),
        ("Most of the generated answers are identical to the reference answers when I print them.",
         "outputs_match_truth"),
        ("The BLEU column shows 0 for all runs. Printing a few translations, many are exactly the same as the "
         "references.", "metric_contradicts_outputs"),
        ("The val loss hardly changed over the last 40 epochs of a 300-epoch run.", "loss_flat_late"),
        ("How many more epochs should I train before sampling?", "asks_train_longer"),
        ("Is it converged?", "asks_train_longer"),
        ("The total grad norm was about 3e4 on the first batch.", "grad_norm_grows"),
        ("It became NaN after just a few iterations.", "nonfinite_later"),
    ],
)
def test_facts_read_on_the_blind_batch_w_are_read_in_other_words(text: str, fact: str):
    assert fact in ids(text), sorted(ids(text))


def test_readings_of_batch_w_stay_quiet_on_their_twins():
    assert "metric_reads_zero" not in ids("Accuracy is 0.93 and the loss is 0.0 at the end.")
    assert "metric_contradicts_outputs" not in ids("Accuracy is 0. The predictions are all the same class.")
    assert "outputs_match_truth" not in ids("The predictions are nothing like the labels.")
    assert "loss_flat_late" not in ids("The loss barely moved from the first step on.")
    assert "grad_norm_grows" not in ids("The grad norm stayed near 0.5 for 2000 steps.")
    assert "asks_train_longer" not in ids("How long does one epoch take on a V100?")
