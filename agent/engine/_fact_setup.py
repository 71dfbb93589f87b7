"""Word-read facts about the training loop's own routines (evaluation hooks, how modules are held), and
further readings of facts named elsewhere.

Same form as `_fact_words.RULES` (fact id, what the fact says, regular expressions tried per sentence,
case-insensitive), split out to keep modules short. A rule whose id is already defined in `_fact_words`
or `_fact_reports` is one more way a reporter states that fact and repeats its description. Rules name the
observation, never a cause; what a fact means for each cause is the catalog's `facts` tables.

May import: nothing of ours.
"""

# ruff: noqa: E501  (a table of regular expressions: one pattern per line reads better than split strings)

from __future__ import annotations

VAL_WORD = r"\b(?:val|validation|test|dev|eval)"
TRAIN_WORD = r"(?:train|training)\b"
_ROUTINE = r"(?:evaluat\w*|validat\w*|val(?:idation)? (?:loop|step|pass|check)|hook|callback|early[- ]?stop\w*|sampl\w*|generat\w*|preview|checkpoint\w*|logg\w*|(?:the |a |my )check)"

RULES: list[tuple[str, str, list[str]]] = [
    ("attention_on_padding", "attention weight goes mostly to padding or border positions", [
        r"(?:attention|attn)\w*(?: weights?| maps?| probs?| probabilities| scores?| mass)?\b.{0,60}\b(?:sits?|goes|lands?|concentrat\w*|focus\w*|piles? up|is|are) (?:almost )?(?:all |entirely |mostly )?(?:on|to|at|towards?) (?:the )?(?:border|padd\w*|pad|masked|empty|zero(?:-padded)?)\b",
        r"(?:border|padd\w*|pad|masked) (?:positions|tokens|pixels|cells|entries)\b.{0,40}\b(?:get|receive|take|hold|absorb)\w* (?:almost all|nearly all|most|all)\b.{0,20}(?:attention|weight)",
    ]),
    ("eval_called_in_routine", "a routine run during training (evaluation, a hook, sampling) calls .eval()", [
        _ROUTINE + r"(?:\(\))?.{0,80}(?:\.eval\(\)|\beval\(\)|eval mode)",
        r"(?:\.eval\(\)|\beval\(\)).{0,40}(?:at (?:its|the) (?:start|beginning|top)|inside (?:it|the|my)|in (?:the |my )?(?:hook|callback|evaluate|validation|check))",
    ]),
    ("plain_list_modules_mentioned", "layers kept in a plain Python list or dict", [
        r"plain (?:python )?(?:list|dict)|python (?:list|dict) of (?:layers|modules|blocks|convs|heads)|self\.\w+\s*=\s*\[\s*(?:nn\.)?\w+\(",
    ]),
    ("still_improving", "the curves were still improving when training stopped", [
        r"still (?:clearly |steadily |visibly |slowly )?descend\w*|(?:no|without (?:any )?) (?:flattening|levell?ing off|sign of (?:a )?plateau)",
    ]),
    ("loss_slow", "the loss falls, but very slowly", [
        r"\b(?:just |only )?barely (?:moving|moves|moved|changing|changes|decreasing|decreases|going down|budg\w*)",
    ]),
    ("split_ignores_groups", "the split is random over rows although rows share a group (speaker, patient, user)", [
        r"(?:split|shuffl\w*|divided|partition\w*)\b.{0,30}\brandom\w*\b.{0,20}\b(?:over|by|across|at the level of|per) (?:the |individual )?(?:utterances?|images?|frames?|rows?|samples?|clips?|sentences?|windows?|slices?|records?|visits?|scans?|segments?|patches?)\b",
        r"random (?:utterance|image|frame|row|sample|clip|slice|record|segment|patch|window)[- ]level split",
    ]),
    ("sums_over_wrong_axis", "probabilities sum to one over the wrong axis", [
        r"\.sum\(\s*(?:dim\s*=\s*)?0\s*\)\s*(?:gives?|is|are|returns?|shows?|=)?\s*(?:all |exactly )?(?:ones|1(?:\.0+)?s?)\b",
        r"softmax (?:over|across|along) (?:the )?(?:flattened |spatial )?(?:h\s*\*\s*w|pixels|spatial)",
        r"(?:add|sum)s? (?:up )?to (?:one|1) over the (?:\d+ )?(?:queries|examples|rows|samples|items|sentences|images)\b",
    ]),
    ("metric_recomputed_differs", "the same metric computed another way gives a different number", [
        r"(?:wandb|tensorboard|dashboard|logger|logged|plotted|plot)\b.{0,100}\bbut\b.{0,40}(?:print\w*|console|stdout|by hand|manually)\b",
        r"(?:comput\w*|calculat\w*|count\w*|recomput\w*)\b.{0,60}\b(?:myself|by hand|manually|on my own)\b.{0,60}"
        r"\b(?:different|other|another|lower|higher)\b.{0,30}\b(?:number|value|figure|result|score)\b.{0,40}\b(?:logged|reported|printed|shown)",
        r"\b(?:logged|reported|printed) (?:one|number|value|accuracy|metric)\b.{0,80}\b(?:my own|my count|i compute|i get)\b",
    ]),
    ("metric_contradicts_outputs", "the reported metric and the outputs, looked at, disagree", [
        r"\b(?:wer|cer|bleu|rouge|accuracy|f1|iou|map|auc|score)\b.{0,80}\b(?:but|yet|while)\b.{0,80}(?:'re|are|is|look\w*|read\w*) (?:clearly |obviously |visibly |mostly |often )?(?:wrong|bad|garbage|poor|off|mediocre)",
        r"(?:logged|reported|printed)\b.{0,60}\b(?:return|reward|score)\w*\b.{0,80}\b(?:but|while|yet)\b.{0,40}"
        r"\bwhen (?:i|we) (?:render|watch|look|play|run|evaluat)\w*",
        r"(?:render\w*|videos?|watch\w*)\b.{0,80}\b(?:but|while|yet)\b.{0,40}\b(?:my |the )?logged\b",
        r"(?:logs?|logged|tensorboard|wandb|dashboard)\b.{0,60}\bbut\b.{0,40}(?:render|watch|run|evaluat|look|play)\w*.{0,40}(?:poorly|badly|fails?\b|terribly)",
    ]),
    ("noisy_but_improving", "per-batch numbers are noisy while the averaged trend improves", [
        r"(?:oscillat\w*|don'?t go down|do not go down|never converge\w*|noisy|jump\w*)\b.{0,120}\bbut\b.{0,80}\b(?:fid|samples?|quality|reward|return|bleu|accuracy|metric)\w*\b.{0,60}(?:drops?|improv\w*|better|rises?|increas\w*)",
        r"^\s*(?:but|however|yet),? (?:the )?(?:fid|is|inception score|reward|return|bleu|sample quality)\b.{0,60}(?:drops?|improv\w*|gets? better|keeps? getting better|rises?)",
        r"(?:jump\w*|noisy|spik\w*|fluctuat\w*)\b.{0,100}\bbut\b.{0,60}(?:average|mean|trend|smoothed|epoch)\w*.{0,40}"
        r"(?:goes down|decreas\w*|improv\w*|falls?|steadily|smooth\w*)",
        r"^\s*(?:but|however|yet),? (?:the )?(?:epoch[- ]average|moving average|average|mean|smoothed|overall)\b.{0,40}"
        r"(?:goes down|decreas\w*|improv\w*|falls?|steadily|smooth\w*)",
    ]),
    ("order_dependent", "results depend on what was processed before", [
        r"(?:as if|like) (?:it (?:were|was) )?continu\w* (?:from )?(?:the )?(?:previous|last|prior|old)",
        r"(?:fresh|new|separate) (?:process|session|instance)\b.{0,100}(?:loop|one process|same process|in sequence|one after another)",
        r"(?:first|opening) (?:few )?(?:words|frames|steps|tokens|predictions|actions) of (?:each|every) (?:utterance|episode|sequence|file|clip|document)\b.{0,40}(?:wrong|bad|off|worse|go wrong)",
        r"depend\w* on (?:which|what) (?:\w+ ){0,3}(?:happened to be|was|were|came|ran|went)\b.{0,40}\bbefore",
        r"(?:up to|until) the first (?:env |environment )?reset\b.{0,120}\b(?:new episode|after it|from then|from there)\b.{0,40}\b(?:off|wrong|differ\w*|don'?t match|mismatch\w*)",
        r"(?:first|opening) (?:few |~?\d+ )?(?:steps|actions|moves)\b.{0,20}\b(?:of|in|after) (?:each|every|the new|a new|an?) "
        r"(?:episode|reset|game)\b.{0,80}(?:depend\w*|erratic|strange\w*|wrong|worse|previous)",
        r"depend\w* on how the (?:previous|last) (?:episode|game|sequence|one) ended",
    ]),
    ("state_carried", "a hidden state or buffer is carried over between calls", [
        r"(?:gru|lstm|rnn|hidden|recurrent) (?:state|memory)\b.{0,30}(?:stored|kept|held|saved) (?:across|between|over) (?:env )?(?:steps|episodes|calls|requests|files|utterances)",
        r"\bstateful (?:conv|rnn|lstm|gru|encoder|decoder|model|layer)",
        r"\b(?:session|hidden|recurrent|rnn|gru|lstm)? ?(?:state|memory)s?\b (?:be |get |being |is |was )?reset\b.{0,40}\?",
        r"(?:lstm|gru|rnn|hidden|recurrent) state\b.{0,40}(?:initiali[sz]ed|reset|created|set) (?:only )?once\b",
        r"\bcarry (?:the )?(?:lstm|gru|rnn|hidden|recurrent) state",
    ]),
    ("weights_static", "weights stay exactly the same", [
        r"(?:weights?|param\w*|checksum|hash)\b.{0,40}(?:has|have|had)(?:n't| not) (?:\w+ )?chang\w*",
        r"(?:weights?|param\w*)\b.{0,40}\bsame\b.{0,30}\bas (?:at |they were at |after )?(?:init\w*|the start|step 0)",
    ]),
    ("no_better_than_pretrained", "training did not move the model beyond where it started", [
        r"(?:pixel-|bit-)?identical (?:to|with) (?:the )?(?:base|pretrained|original|initial) (?:model|checkpoint|weights|network)",
    ]),
    ("short_training", "training ran only briefly", [
        r"\b(?:at|after|by) (?:step|iteration|iter|update)s? [1-9](?:\.\d)?k\b.{0,80}\b(?:at|after|by|to) (?:step |iteration )?[1-9](?:\.\d)?k\b",
        r"\b(?:at|after|by) (?:step|iteration|iter|update)s? [1-9]\d{2,3}\b.{0,80}\b(?:at|after|by|to) (?:step |iteration |iter )?[1-9]\d{2,3}\b",
        r"\b(?:and )?then i (?:stopped|killed|aborted|cancell?ed) (?:it|the run|the job|training)\b|\bi (?:stopped|killed) (?:it|the run|training) (?:early|after)\b",
        r"\b0?\.\d+ (?:of an )?epochs?\b|\ba fraction of (?:an|one|the first) epoch|\b(?:less|fewer) than (?:one|a|1|a single) (?:full )?epoch|\b(?:half|a quarter|a third) of (?:an|the first|one) epoch",
        r"(?<![\d,.])[1-9]\d{0,2} (?:iterations?|iters|updates|batches) in\b(?! (?:total|all|a row))|\b[\d,.]+k? (?:iterations|iters|steps|epochs) so far\b|"
        r"\bstopped (?:it |training |the run )?(?:after|at) (?:only )?(?:epoch )?[1-9]\d? epochs?\b|"
        r"(?:didn't|did not|haven't|have not|never) (?:\w+ )?(?:train|run) (?:it|them|the model) (?:over|through|to the end|fully|all the way)|(?:stopped|killed|aborted) (?:it|the run|training) (?:after|in|during) (?:the )?(?:first|a few|several|couple)",
    ]),
    ("small_model", "a deliberately small or shallow model", [
        r"(?:model|checkpoint|weights?|network)\b.{0,40}\bonly (?:about |around |roughly |~)?\d+(?:\.\d+)? ?(?:mb|kb|k param\w*|m param\w*)\b",
        r"\b(?:seems?|looks?|is|feels?) (?:quite |very |too |rather )?(?:small|tiny) for (?:this|that|so) (?:much|many|large|big)\b",
    ]),
    ("val_equals_train", "validation numbers equal the training numbers exactly", [
        VAL_WORD + r"\w* (?:acc\w*|loss|metrics?|scores?|numbers?)\b.{0,30}(?:equals?|is identical to|is the same as|matches|=) (?:the )?" + TRAIN_WORD + r".{0,60}(?:exactly|every epoch|to the \w+ decimal|digit for digit|to the last digit)",
    ]),
    ("train_mode_flag_false", "the model reports training=False inside the training loop", [
        r"model\.training\b.{0,40}(?:inside|in|during) (?:my |the )?(?:training|train) (?:loop|step|epoch).{0,20}\b(?:shows?|prints?|is|gives?|returns?) false",
        r"(?:inside|in|during) (?:my |the )?(?:training|train) (?:loop|step|epoch).{0,60}model\.training\b.{0,20}\b(?:shows?|prints?|is|gives?|returns?|==) false",
        r"dropout (?:0(?:\.0)?|of 0) and (?:dropout )?0?\.\d+ give (?:exactly |precisely )?the same (?:training )?(?:curve|loss|run|results?)",
        r"changing (?:the )?dropout(?: rate)? (?:gives?|makes?) (?:no difference|identical runs)|changing its rate gives identical runs",
        r"model\.training\b.{0,60}\b(?:is|was|shows?|prints?|returns?|stays?) (?:always )?false\b.{0,20}\b(?:for|in|during|on) "
        r"(?:every|each|all|the whole)\b.{0,20}\btrain",
    ]),
    ("norm_stats_unchanged", "batch-norm running statistics never move during training", [
        r"num_batches_tracked\s*(?:=|==|is|of|stays?(?: at)?|still)?\s*0\b(?!\.\d)",
    ]),
    ("running_stats_change_in_eval", "batch-norm running statistics change when validation runs", [
        r"running_(?:mean|var)\w*\b.{0,40}(?:differ\w*|chang\w*|updat\w*|mov\w*)\b.{0,30}(?:after|during|by|when) (?:running |i run )?(?:the )?(?:validation|evaluation|eval|inference|testing)",
    ]),
    ("eval_mode_elsewhere_better", "the same weights score better when evaluated elsewhere in eval mode", [
        r"(?:separate|new|fresh|another|different) (?:notebook|script|process|session)\b.{0,80}(?:model\.)?eval\(\).{0,80}(?:get|gives?|is|reach\w*|score\w*) (?:about |around |~)?\d",
    ]),
    ("labels_shifted", "labels shifted, shuffled or out of line with the inputs", [
        r"(?:tags?|labels?)\b.{0,30}(?:appear|are|land|come|show up)\w* (?:one|two|a|1|2)(?: or (?:two|2|three|3))? (?:tokens?|positions?|steps?|words?|frames?) (?:after|before|later|earlier|too late|too early)",
        r"(?:predict\w*|forecast\w*|curve|output|prediction)\b.{0,80}\b(?:shifted|lagg?\w*|delayed|behind) by (?:one|a|1|a single) (?:day|step|time ?step|bar|frame|sample|position|tick|period)",
        r"(?:argmax|predictions?|outputs?|predicted \w+)\b.{0,60}\b(?:matches|match|equals?|is) (?:the )?(?:ground[- ]truth|target|label|true)"
        r"\w*(?: token| word| value)? (?:one|two|a|1|2) (?:places?|positions?|steps?|tokens?) (?:later|ahead|earlier|off)",
    ]),
    ("sample_loss_depends_on_batch", "one example's loss changes with the other examples in its batch", [
        r"(?:per[- ](?:sample|example|item|image|row)|each (?:sample|example|image|item)'s|(?:an |one )?individual (?:sample'?s? )?) loss\b.{0,80}\b(?:changes?|depend\w*|differ\w*|varies|moves?)\b.{0,60}\b(?:other|rest of the|which) (?:\w+ )?(?:samples?|images?|examples?|items?|rows?|batch)",
        r"loss (?:of|for|per) (?:a |one |the same |each )?(?:sample|example|image|item|row)\b.{0,60}\b(?:changes?|depend\w*|differ\w*|varies)\b.{0,60}\b(?:other|rest of the|which) (?:\w+ )?(?:samples?|images?|examples?|items?|rows?|batch)",
    ]),
    ("same_lr_works", "another version trains fine with the same learning rate", [
        r"(?:trains?|works?|worked|trained|runs?|ran|converges?|converged|learns?|learned)\b(?: \w+){0,2} (?:fine|well|ok|okay|normally|stably|perfectly|great|without (?:any )?(?:problems?|issues?))\b.{0,20}\bwith the same (?:learning rate|lr|optimi[sz]er settings|hyper-?parameters|settings|config\w*)\b",
        r"\bsame (?:learning rate|lr)\b.{0,40}\b(?:trains?|works?|worked|trained|converges?|converged) (?:fine|well|ok|okay|normally)",
    ]),
    ("val_worsens", "validation loss rising or validation accuracy falling", [
        VAL_WORD + r"\w* (?:acc\w*|auc|f1|map|score|metric)\b.{0,30}(?:reaches|hits|peaks?|tops? out)\b.{0,20}\b(?:max\w*|peak|best)\b.{0,80}(?:go(?:es)? down|drops?|declin\w*|decreas\w*|falls?|gets? worse)",
        r"(?:(?:good|best|great|fine|right) (?:results?|accuracy|predictions?|performance|guesses)|(?:results?|accuracy|predictions?|performance) (?:was|were|is|are) (?:good|great|fine|best))\b.{0,80}\b(?:when|as|once|after) (?:the )?(?:number of )?(?:epochs?|iterations?|steps?|training) (?:increas\w*|grows?|goes up|continues?|goes on|gets? longer)\b.{0,60}\b(?:worse|wrong|deviat\w*|degrad\w*|drops?|errors?|mistakes?)",
        r"(?:more|longer|extra) (?:epochs|training|iterations) (?:makes?|made|gives?|gave) (?:it |the results? |the model |the predictions? )?(?:worse|wrong)",
    ]),
    ("value_estimates_grow", "the learned value estimates keep growing", [
        r"\b(?:q[- ]?values?|value estimates?|v[- ]?values?|predicted (?:returns?|values?))\b.{0,40}\b(?:creep\w* up|keep (?:growing|rising|increasing|climbing)|grow\w* (?:without bound|forever|steadily)|blow\w* up|explod\w*|diverg\w*)",
    ]),
    ("param_count_low", "the parameter count is lower than expected", [
        r"(?:param\w*|numel)\b.{0,60}(?:says?|gives?|shows?|reports?|prints?|is|are)\s+~?\d[\d.,]*\s*[km]?\b.{0,30}\b(?:but|while|whereas) (?:i |we )?(?:expect\w*|should)",
        r"(?:param\w*|parameter) count\b.{0,30}\b(?:looks?|seems?|is|appears?) (?:\w+ )?(?:small|low|tiny)|(?:checkpoint|state_dict|saved model|weights file)\b.{0,30}\b(?:oddly |suspiciously |surprisingly |very |too )?(?:small|tiny)\b",
    ]),
    ("train_val_plateau_together", "training and validation curves level off together at the same value", [
        TRAIN_WORD + r"\w* (?:acc\w*|loss|score|error)\b.{0,40}\b(?:about|roughly|basically|pretty much|more or less|nearly|almost) (?:the same as|equal to|identical to|as high as|as low as) (?:the |my )?" + VAL_WORD,
        r"\bthe same ~?\s*\d+(?:\.\d+)?\s*%? (?:on|for) (?:the )?train\w*(?: \w+)? and (?:on |for )?(?:the )?(?:fresh\w*|new\w*|unseen|held[- ]out|val\w*|test\w*)",
        r"(?:equally|just as) (?:bad|poor|low|mediocre|weak) on (?:the )?train\w* (?:data |set )?(?:and|as on) (?:the )?(?:val\w*|test\w*|new|fresh)",
        r"\bon the training (?:points|data|set|examples)(?: themselves)?\b.{0,40}\b(?:about|roughly|nearly|basically) the same on"
        r" (?:the )?(?:held[- ]out|val\w*|test)",
        r"(?:on|for) (?:the )?train\w*(?: \w+)? and (?:on |for )?(?:the )?(?:test|val\w*|held[- ]out|unseen|new)\w*(?: \w+)? alike",
    ]),
    ("lr_no_help", "changing the learning rate does not help", [
        r"(?:a few|several|different|other|various|some|many|multiple) (?:learning rates|lrs)\b.{0,30}(?:doesn't|does not|didn't|did not|don't|do not|won't) (?:really )?(?:move|change|budge|help|improve|fix)",
        r"\btried (?:(?:different|many|several|all) )?(?:learning rates|lrs?|lr values)\b.{0,15}\bfrom\s+\S+\s+(?:to|up to|all the way to)\s+\S+",
    ]),
    ("longer_no_help", "training longer does not help", [
        r"(?:doubl\w*|tripl\w*|more|longer|extra|increas\w*) (?:the )?(?:number of )?(?:iteration\w*|iters|epochs|steps|training)(?: count| time)?\b.{0,60}(?:doesn't|does not|didn't|did not|don't|do not|won't|no) (?:really )?(?:move|change|budge|help|improve|fix|difference)",
        r"\btrain\w* (?:it )?(?:for )?longer (?:doesn't|does not|didn't|did not|won't) (?:really )?(?:change|help|improve|fix|move)",
        r"\btried\b.{0,80}\bup to \d[\d,]*k? (?:epochs|iterations|steps)",
        r"\b(?:\d+(?:\.\d+)?\s*x|\d+ times) (?:longer|more (?:epochs|steps|iterations))\b.{0,40}\b(?:exactly )?the same\b",
    ]),
    ("grad_resets_per_epoch", "gradients grow through each epoch and fall back when the next one starts", [
        r"(?:grad\w*|gradient norm|loss)\b.{0,60}(?:grow\w*|increas\w*|climb\w*|ris\w*|build\w* up|accumulat\w*)\b.{0,40}"
        r"(?:within|over|during|through(?:out)?) (?:each|every|the|an?) epoch.{0,80}(?:drops?|falls?|goes|resets?|comes?|snaps?)\b"
        r".{0,40}(?:start|beginning) of (?:the |each |every |a )?(?:next|new|following)?",
    ]),
    ("asks_train_longer", "the user wonders whether more training is all it needs", [
        r"(?:should|do|must|shall) (?:i|we) (?:just |simply )?(?:run|train|wait)(?: it| them| for)? (?:(?:a few|some|many|lots|a lot) )?(?:more|longer|additional)\b",
        r"how long (?:it|does it|did it|will it|should it|would it) (?:take|takes|took)\b(?!.{0,25}\b(?:per|each|an?) (?:epoch|step|batch|iteration|forward))",
        r"how (?:many|long)(?: more)? (?:epochs|iterations|steps|hours|days)(?: does it take| do (?:i|you|we) need| should it take)? (?:until|before|till|to (?:get|reach)|for it to)\b",
    ]),
    ("lr_collapses", "the learning rate decays to almost nothing too early", [
        r"(?:learning rate|\blr\b).{0,40}(?:drop\w*|fall\w*|fell|decay\w*|shrink\w*|gone|is (?:already )?(?:tiny|zero|~?\s*0\b))"
        r".{0,30}(?:after|within) (?:one|the first|a single) epoch",
        r"(?:learning rate|\blr\b).{0,60}\b(?:is|was|reads?|shows?|at|becomes?) (?:like |about |around |only |just |~\s*)?\d(?:\.\d+)?e-\d+\b"
        r".{0,40}(?:even though|although|but|while|whereas|though) (?:i |we )?(?:set|start\w*|use\w*|gave|configured|init\w*)",
    ]),
    ("edits_no_effect", "code or data changes have no effect", [
        r"(?:loss curves?|curves?|numbers|metrics|results|training)\b.{0,30}\b(?:basically |practically |essentially |almost |nearly )?"
        r"(?:identical|the same) (?:to|as) (?:the |my |our )?(?:last|previous|old|earlier)\b.{0,20}\bruns?\b",
    ]),
    ("train_deterministic", "training-mode passes that should be random are identical", [
        r"\bdropout\b.{0,80}(?:(?:literally |exactly |bit-?)identical|exactly the same|the same (?:training |loss )?(?:curves?|loss\w*|outputs))",
        r"\bdropout\b.{0,60}(?:seems? to do|does|do) nothing\b",
    ]),
    ("grads_accumulate", "gradients add up across backward calls or grow linearly with the step count", [
        r"\.grad\b.{0,60}\b(?:already|still) (?:non-?zero|populated|filled|set|there)\b",
        r"\bas if (?:it (?:is|were|was) )?a running (?:sum|total)",
        r"(?:clear|zero|reset)\w* (?:the )?(?:\w+'s )?grad\w* (?:only )?once (?:before|per|at|outside)",
        r"\bgrad\w* (?:are |were |is |get |gets )?(?:only )?(?:cleared|zeroed|reset) (?:only )?once (?:before|per|at|outside)",
    ]),
    ("nothing_counted", "no element is counted in the loss (an empty mask or a zero count)", [
        r"(?:mask|labels?)\w*(?:\[[^\]]*\])?(?:\.\w+)*\.sum\(\)\s*(?:gives|is|returns|=|==|shows|prints)\s*(?:tensor\()?0(?![.\d])",
        r"reduction\s*=\s*['\"]sum['\"].{0,60}(?:exactly )?0(?:\.0+)?(?![.\d])",
    ]),
    ("generalization_gap", "training results far better than validation", [
        r"(?:from|on|in) the train\w* (?:set|data|split|examples|sentences|images)\b.{0,30}(?:almost |nearly )?perfect\w*,? "
        r"but (?:on )?(?:\w+ ){0,3}?(?:unseen|new|held[- ]out|(?:it |the model )?(?:hasn't|has not|never|didn't) (?:seen|see))",
    ]),
    ("train_regularized_only", "dropout or augmentation acts on the training side only", [
        r"(?:augment\w*|mixup|cutmix|dropout|random (?:crops?|erasing)|colou?r jitter|randaugment)\b.{0,60}"
        r"\b(?:only )?on (?:the )?train\w*(?: side| set| data| split)?",
    ]),
    ("attention_saturated", "attention weights collapse onto one position", [
        r"attends? (?:to )?(?:exactly |only )?(?:one|a single) (?:other )?(?:\w+ )?(?:token|position|patch|key|word)\b",
        r"(?:one|a single) weight of (?:about |~\s*)?1(?:\.0+)?\b",
        r"\bscores?\b.{0,30}\bin the (?:hundreds|thousands)",
        r"\bq\s*@\s*k\b.{0,80}\bstd\b.{0,20}\b\d{2,}",
        r"attention weights?\b.{0,40}(?:almost|nearly) all (?:0|zero)",
    ]),
    ("fixed_weights_changed", "weights meant to stay fixed changed during training", [
        r"(?:backbone|encoder|discriminator|generator|pretrained|frozen|\bd|\bg)(?:'s)? (?:\w+ ){0,2}weights?\b.{0,40}"
        r"(?<!n't )(?<!not )(?<!never )(?:also )?(?:chang\w*|differ\w*|mov\w*|drift\w*)",
        r"(?:embedding|weight|encoder|backbone|vector)\w*(?: \w+){0,5} (?:is|are|was|were) (?:\w+ )?different from (?:the )?(?:\S+ )?(?:file|weights|vectors|checkpoint)s? (?:i|we) (?:loaded|started from)",
        r"(?:encoder|backbone|frozen|pretrained)\w* (?:weights?|params?|parameters) (?:are|were) (?:not|no longer) (?:what|the ones) (?:i|we) loaded",
        r"(?:weight[_ ]decay\s*=?\s*0(?:\.0+)?\b|without weight[_ ]decay)\b.{0,60}\b(?:stays?|remains?) (?:bit-?identical|identical|unchanged|the same)",
    ]),
    ("eval_used_to_freeze", "eval() is what is meant to keep a part of the model fixed", [
        r"(?:froze|freeze|frozen|stay as it is|stay (?:fixed|the same|untouched))\b.{0,60}\.eval\(\)",
        r"\.eval\(\).{0,40}(?:to freeze|so (?:that )?it (?:stays|is|remains) (?:frozen|fixed))",
    ]),
    ("grad_accum", "gradient accumulation", [
        r"backward\b.{0,40}(?:each|every|on each) (?:micro[- ]?|mini[- ]?)?batch\w*\b.{0,60}\bstep\w*.{0,30}(?:every \d+|once|at the end)",
    ]),
    ("scales_with_count", "the loss or update grows with the number of accumulated (micro)batches", [
        r"(?:lower|reduc|divid)\w* the (?:lr|learning rate)\b.{0,40}(?:in proportion|proportional\w*) to (?:the )?accum\w*",
    ]),
    ("tensor_rebuilt_from_values", "a tensor is rebuilt from Python numbers (.item(), .tolist(), numpy)", [
        r"torch\.(?:tensor|as_tensor|from_numpy|Tensor)\((?:[^()]|\([^()]*\))*\.(?:tolist|item|numpy)\(\)",
        r"\.(?:item|tolist)\(\).{0,80}\btorch\.(?:tensor|as_tensor|Tensor)\(",
    ]),
    ("argmax_in_loss", "the loss is computed from argmax or one-hot predictions (no gradient)", [
        r"\bargmax\b.{0,80}\b(?:embed\w*|feeds?|fed|passe[sd]|look\w* up)\b",
    ]),
    ("fitted_on_all_data", "preprocessing or encodings fitted on all the data before the split", [
        r"(?:\bfit|fitted|comput\w*|calculat\w*|target[- ]encod\w*|normali[sz]\w*|standardi[sz]\w*|mean target)\b.{0,60}\b(?:on|over|using|from) "
        r"(?:the )?(?:full|whole|entire|complete|all (?:the )?)\s*(?:\w+ )?(?:data\w*|series|file|dataframe|df|set|rows)\b",
        r"(?:append\w*|add\w*|extend\w*) (?:a few |some |more |extra |new )+(?:\w+ ){0,2}(?:to|at the end of) (?:the )?\S+\b.{0,60}\btrain\w* (?:inputs|data|features|values|rows|samples)\b.{0,30}\bchange",
        # "if I regenerate the test split, the scaled *training* matrix changes too"
        r"(?:regenerat\w*|re-?draw\w*|re-?split\w*|chang\w*|re-?shuffl\w*) (?:the |my )?(?:test|val\w*|held[- ]?out) "
        r"(?:split|set|rows|fold)\b.{0,60}\btrain\w*\W{0,2} (?:matrix|inputs|data|features|values|rows|samples|array)\b.{0,30}\bchange",
    ]),
    ("generalization_gap", "training results far better than validation", [
        r"\b(?:on|for) (?:the )?(?:held[- ]?out|val\w*|test|unseen)\b.{0,60}\b(?:it'?s|it is|it was) "
        r"(?:much|far|way|a lot|significantly) (?:lower|worse)\b",
        r"(?:it|the model) (?:has not|hasn't|never|didn't|did not) (?:seen|see)\b.{0,50}\b(?:no better|worse|higher) than",
    ]),
    ("shuffled_time_split", "rows of a time series shuffled before the split", [
        r"(?:lag|lagged|rolling|daily|stock|time[- ]series|forecast)\w*\b.{0,80}\brandom (?:\d+/\d+ )?(?:row )?split",
    ]),
    ("too_good", "results look too good to be true", [
        r"\b(?:basically|practically|essentially|virtually) perfect\b",
    ]),
    ("loss_flat", "the loss barely moves from its starting value", [
        r"\b(?:loss|error)\b.{0,60}\b(?:sits?|sat|stays?|stuck|freezes?|frozen) (?:exactly |right )?(?:at|on) (?:exactly )?the same (?:value|number|loss)",
    ]),
    ("outputs_all_zero", "the model outputs exactly zero for every input", [
        r"(?:预测|输出|结果|密度图|prediction|output)\w*.{0,12}(?:全是|全为|全部是|全部为|都是)\s*0",
    ]),
    ("asks_if_result_expected", "the user asks whether the result they got is what to expect", [
        r"\bis (?:this|that|~?\s*\d+(?:\.\d+)?\s*%?) (?:what|about what) (?:i|we) should (?:expect|get)\b",
    ]),
    ("small_dataset", "a small training set", [
        r"(?:~|about |around |roughly )?\b(?:[1-9]\d?|1\d\d) (?:training |labell?ed )?(?:examples|samples|images|imgs|pics|photos|"
        r"rows|sentences|clips|recordings) (?:per|each|for each|a|of each) (?:class|category|label|object|speaker|person)\b",
    ]),
    ("setting_no_effect", "a loss weight or setting changes nothing at all, whatever its value", [
        r"chang\w* (?:its|the|this|that|my) (?:\w+ )?(?:weight|coefficient|lambda|factor)\b.{0,40}\b(?:doesn'?t|does not|didn'?t|did not)"
        r" (?:change|affect|alter|do) (?:anything|\w+ \w+|\w+)(?: at all)?",
    ]),
    ("train_poor", "the model does poorly even on the training data", [
        # "the loss has basically stopped changing between checkpoints, it sits around 1.6"
        r"\bloss (?:has )?(?:basically |pretty much |more or less |almost )?(?:stopped|stops) (?:changing|moving|going down|"
        r"decreasing|improving)\b.{0,60}\b(?:sits?|stuck|hovers?|hovering|stays?) (?:at|around|near|about)\b",
        # "on the training set itself it only gets to about 0.84 F1"; "shouldn't it be able to fit the training data?"
        r"\bon (?:the )?train\w*(?: set| data| split| examples)?(?: itself| themselves)?\b.{0,30}\b(?:only|never|just|barely)"
        r" (?:gets?|reach\w*|hits?|goes|climbs?|makes? it) (?:up )?to\b",
        r"(?:shouldn'?t|should not|can'?t|why (?:can'?t|doesn'?t|does not))\b.{0,20}\b(?:be able to )?fit the train\w*",
    ]),
    ("metric_copies_other_split", "one split's logged metric equals another split's to every digit", [
        VAL_WORD + r"\w*(?: ?/ ?| )(?:acc\w*|f1|score|error|metric)\b.{0,60}\b(?:always |exactly |identically )*(?:equal|identical|the same)"
        r"(?: to| as)? (?:the )?(?:last |final |latest )?(?:val\w*|dev|test|train\w*)\b.{0,40}\b(?:to (?:every|the last) digit|exactly|every run)",
        VAL_WORD + r"\w*(?: ?/ ?| )(?:acc\w*|f1|score|error|metric)\b.{0,40}\b(?:always |exactly )+(?:equal|identical|the same)"
        r"(?: to| as) (?:the )?(?:last |final |latest )?(?:val\w*|dev|test|train\w*)\W?(?:acc\w*|f1|score|error|metric)",
    ]),
    ("train_val_plateau_together", "training and validation curves level off together at the same value", [
        TRAIN_WORD + r"(?: and | ?/ ?)" + VAL_WORD + r"\w* (?:acc\w*|loss\w*|scores?|errors?|f1|curves?|numbers?)\b.{0,15}\b(?:are |stay |sit )?"
        r"(?:close to each other|close together|about the same|nearly the same|almost the same|very close)\b",
    ]),
    ("metric_batch_size_dependent", "the evaluation metric of one model changes with the evaluation batch size alone", [
        r"(?:error|accuracy|metric|score|top-?\d)\w*\b.{0,60}\bdepending (?:only )?on (?:the )?(?:test |eval\w* |val\w* )?"
        r"batch[ _-]?size",
    ]),
    ("selected_on_test", "the checkpoint or settings are chosen on the test set they are reported on", [
        r"(?:pick|choos|select)\w* (?:the )?(?:best )?(?:checkpoint|epoch|model)\b.{0,40}\b(?:on|using|with|by) (?:a |the )?"
        r"(?:separate )?(?:dev|validation|val)\b.{0,80}\b(?:agree|match|the same|consistent)",
        r"(?:checkpoint|epoch|model|hyper-?parameters?)s? (?:is |was |are |were |gets? )?(?:picked|chosen|selected)\b.{0,30}"
        r"\b(?:on|by|using) (?:the |its )?test\b",
    ]),
    ("val_stalls_train_improves", "the training loss keeps falling while test or validation scores stop improving", [
        r"\btrain\w* loss (?:keeps|kept|continues|continued|is still) (?:on )?(?:going down|decreas\w*|falling|dropping)\b.{0,240}"
        r"\b(?:test\w*|val\w*|eval\w*)\b.{0,120}\b(?:not better|no better|(?:still )?worse|(?:doesn'?t|does not|don'?t|didn'?t|did not)"
        r" (?:improve|get better))",
        r"\btrain\w* (?:acc\w*|loss) (?:hits|reaches|reached|gets to|got to|goes to|went to) (?:100\s*%?|0(?:\.0+)?\b|zero).{0,80}\b(?:val\w*|test|dev) "
        r"(?:acc\w*|loss|score|f1)\w* (?:just )?(?:stays?|stalls?|plateaus?|stops? improving|sits?|stuck)\b",
        r"\bhigh train\w* acc\w*.{0,60}\b(?:but|while|yet)\b.{0,40}\b(?:val\w*|dev|test)\b.{0,40}\b(?:stays?|remains?)\b (?:almost |nearly |roughly )?(?:constant|flat|the same)",
    ]),
    ("weights_all_one", "every attention or softmax weight is exactly 1 (a softmax over an axis of size one)", [
        r"\b(?:attention|softmax|alpha)\w* (?:weights?|scores?|probabilit\w*|values?|outputs?)\b.{0,100}\b(?:all|always|every\w*|only)\b"
        r".{0,20}\b(?:exactly )?1(?:\.0+)?(?!\d|\.\d)",
    ]),
    ("preprocessing_instant", "a preprocessing step (tokenising, caching a dataset) finished far faster than before", [
        r"(?:tokeniz\w*|preprocess\w*|pre-process\w*|caching|encoding|featuriz\w*) (?:the )?(?:[\w\x22']+ ){0,2}?(?:step|stage|phase|pass)?\W{0,3}(?:finished|took|was done|completed|ran|is done) (?:in )?(?:under )?(?:a|one|1|half a|two|2) (?:second|sec|s)\b",
        r"(?:tokeniz\w*|preprocess\w*|caching) (?:\w+ ){0,3}(?:finished|completed|was done|is done|was skipped|got skipped) (?:instantly|immediately|straight away|at once)",
    ]),
    ("lr_moves_per_epoch", "the logged learning rate moves one small notch per epoch", [
        r"(?:learning[_ ]?rate|\blr\b)\w*\b.{0,100}\b(?:goes up|going up|increas\w*|ris\w*|grows?|climbs?|moves?|steps?|changes?) (?:only )?(?:by )?(?:one |a )?(?:tiny |small |little )?(?:notch |step |bit )?(?:per|each|every|once (?:an?|per)) epoch",
        r"(?:learning[_ ]?rate|\blr\b)\w* (?:going|goes|went|climbing|rising|increasing) (?:from )?(?:about |~\s*)?\d(?:\.\d+)?e-(?:[6-9]|\d\d)\b",
    ]),
    ("lr_never_reaches_peak", "the logged learning rate never reaches the value configured", [
        r"(?:learning[_ ]?rate|\blr\b)\w*\b.{0,60}\bnever (?:got|gets|reached|reaches|went|goes|climbed|rose) (?:above|over|past|beyond|up to)"
        r"\b.{0,60}\b(?:configured|set|asked for|specified|peak|target)",
        r"(?:learning[_ ]?rate|\blr\b)\w*\b.{0,60}\bnever (?:got|gets|reached|reaches|went|goes|climbed|rose) (?:above|over|past|beyond|"
        r"up to) (?:about |~\s*)?\d",
    ]),
    ("probs_not_normalised", "probabilities that do not sum to one per example", [
        r"(?:rows?|weights|attention|probabilit\w*)\b.{0,60}(?:don'?t|do not|doesn'?t|does not) look like (?:probability )?distributions",
        r"(?:per[- ]\w+ )?(?:totals?|sums?) (?:go|range|vary|are) from (?:about |~\s*)?0\.\d+ to (?:about |~\s*)?1\.\d+",
    ]),
    ("metric_reads_zero", "a metric that reads exactly zero", [
        r"\b(?:precision|accuracy|recall|f1|score|exact[- ]match|match rate|metric|bleu|map)\b(?:(?!\bloss\b)[^\d]){0,60}\b(?:is|was|reads?|shows?|stays?|comes? out|gives?|at|=|:) (?:exactly |always |still |just )?(?:0(?:\.0+)?|zero)(?![.\d])",
    ]),
    ("outputs_match_truth", "the predictions, looked at, mostly equal the ground truth", [
        r"\b(?:predict\w*|outputs?|sequences?|answers?|transcri\w*|translations?)\b.{0,80}\b(?:identical|character[- ]for[- ]character|exactly the same as|match(?:es)? exactly)\b.{0,40}"
        r"\b(?:true|ground[- ]truth|reference|target|label|annotat)\w*",
    ]),
    ("loss_flat_late", "the loss flattened only late in a long run", [
        r"(?:barely|hardly|not) (?:moved|changed|improved|budged)\b.{0,20}\b(?:over|for|in|during) the (?:last|final|past) (?:stretch|few|couple|\d+|many|several)\b",
        r"(?:flat|plateau\w*|flattened)\b.{0,30}\b(?:over|for|in|during) the (?:last|final|past) (?:stretch|few|couple|\d+|many|several) (?:of )?(?:epochs|steps|iterations|hours)",
    ]),
    ("asks_train_longer", "the user wonders whether more training is all it needs", [
        r"how (?:long|many (?:more )?(?:epochs|steps|iterations|hours))(?: more)? (?:do|should|must|would) (?:i|we) (?:need to |have to )?(?:keep )?(?:train|run)\w*",
        r"\bis (?:it|that|this|the model|training) (?:already |fully )?converged\s*\?",
    ]),
    ("weights_static", "weights stay exactly the same", [
        r"(?:dump\w*|sav\w*|print\w*|compar\w*|snapshot\w*|check\w*)\b(?:(?!\bloss|\bacc|\bauc|\bscore|\bmetric|\boutput|\bpredict).){0,60}\b(?:at (?:epoch|step|iteration) 0|at init\w*|before training)\b.{0,60}\b(?:bit-?for-?bit|bitwise|exactly) (?:identical|the same|equal|unchanged)",
    ]),
    ("norms_not_unit", "vectors that should have unit length do not", [
        r"\bnorms?\b.{0,60}\b(?:nowhere near|far from|not|n't|never)\s+(?:equal to |close to )?(?:1(?:\.0)?|one)\b(?![.\d])",
        r"(?:vectors?|embeddings?|tokens?|features?)\b.{0,40}\b(?:nowhere near|far from)\s+(?:1(?:\.0)?|one|unit (?:length|norm))\b(?![.\d])",
        r"(?:unit (?:length|norm)|l2[- ]normali[sz]ed)\b.{0,60}\b(?:is|are)(?: not|n't)\b",
    ]),
    ("grad_small", "gradients are tiny in some layers", [
        r"grad(?:ient)?s?(?: norms?)?\b(?:(?!\blr\b|learning rate|decay|\beps|clip).){0,60}\b(?:is|was|are|of|at|around|about|reads?|=|:)\s*(?:around |about |roughly |only |~\s*)?[1-9](?:\.\d+)?e-(?:0?[5-9]|1\d)\b",
    ]),
    ("grad_norm_grows", "gradient norms grow or explode", [
        r"grad(?:ient)?s?(?: norms?)?\b.{0,40}\b(?:is|was|are|of|at|around|about|reads?|=|:)\s*(?:around |about |roughly |~\s*)?(?:1e\+?0?[3-9]|[1-9]\d?e\+?0?[3-9]|[1-9]\d{3,}(?:\.\d+)?)\b(?!\s*(?:steps|iterations|epochs|batches|examples|samples|params|parameters))",
    ]),
    # A weight of 0.1, 0.01 or 0 on a term that leaves its gradient unchanged: the backward ignores grad_output.
    ("scale_ignored_by_backward", "scaling a loss term (its weight, a loss scaler) leaves its gradients unchanged", [
        r"(?:(?:weight|coefficient|lambda|factor)s?|scal\w*)\b.{0,80}\b(?:the same|identical|unchanged)\b.{0,30}"
        r"\b(?:grad(?:ient)?s?|grad(?:ient)? norms?)\b",
        r"\bgrad(?:ient)?s?(?: norms?)?\b.{0,40}\b(?:the same|identical|unchanged|don'?t change)\b.{0,60}"
        r"\b(?:whatever|regardless of|no matter)\b.{0,20}\b(?:weight|coefficient|scale|factor)",
        r"\b(?:loss |grad )?scaler\b.{0,40}\b(?:doesn'?t|does not|don'?t|never) (?:seem to )?(?:affect|change|scale|touch)",
    ]),
]

# A rule does not fire on a sentence that also matches its exception: ".eval() was never called" denies it.
EXCEPT: dict[str, str] = {
    # "the same sentences that looked good in validation" are one split's examples seen twice, not an overlap
    "data_overlap": r"\b(?:same|identical) (?:images|rows|samples|examples|sentences|records|files|inputs) (?:that|which) (?:looked|look|were|was|worked|work|did|scored|came out|seemed)\b.{0,20}\b(?:good|fine|well|right|great|ok|okay|decent|correct)\b",
    # a score computed over the whole test set is an evaluation, not a statistic fitted on it
    "fitted_on_all_data": r"(?:accuracy|metric|score|\bf1\b|\bloss\b|error|\bauc\b|\bwer\b)\b.{0,20}\b(?:on|over) (?:the )?(?:whole|full|entire)",
    # "tried relu vs tanh, batch size, more samples: nothing helps" lists settings that changed nothing
    "batch_dependent": r"\btried\b.{0,120}\bbatch[ _-]?sizes?\b.{0,60}\b(?:nothing|none of (?:it|them|this)|no (?:change|difference|luck|help))",
    "eval_mode_set": r"(?:separate|new|fresh|another|different) (?:notebook|script|process|session)\b.{0,80}(?:model\.)?eval\(\)",
    # "same model code, only the data pipeline differs" is a controlled comparison, not a repeat giving new numbers
    # "the learning rate ... and it was still rising when training stopped" is the schedule, not the curves
    "still_improving": r"(?:learning[_ ]?rate|\blr\b)\b[^.]{0,60}\b(?:it|which) (?:was|is) still (?:rising|increasing|climbing|going up)",
    # ... and "4 runs with different seeds" are trainings that differ, not one model evaluated twice
    "eval_nondeterministic": r"\bonly (?:the |my )?(?:\w+ ){0,3}(?:differs?|changed?)\b"
    r"|\b(?:different|other|new|several|\d+) (?:random )?seeds\b",
    # "worse than the paper reports" compares with a reference, not with the user's own validation
    "new_data_worse": r"\bthan (?:the |what (?:the )?)?(?:paper|published|reported|authors?|original)\b",
    # "same user, same item" says nothing of splits unless the sentence names one
    # ... and "on held-out images of the same people it's much lower" is a gap, not an overlap that flatters
    "group_overlap": r"^(?!.*\b(?:train\w*|val\w*|test\w*|split\w*|folds?|both|dev|held[- ]?out)\b)"
    r"|\b(?:much|far|way|a lot|significantly) (?:lower|worse)\b",
    "eval_called_in_routine": r"(?:forg[eo]t\w*|without|never|missing|no|n't|\bnot) (?:to )?(?:\w+ ){0,2}?(?:\w+\.)?eval\(\)|eval\(\) (?:is |was )?(?:never|not|missing)",
}
