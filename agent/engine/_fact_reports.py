"""More word-read facts: what reporters measure about gradients, activations, updates and set-up.

Same form as `_fact_words.RULES` (fact id, what the fact says, regular expressions tried per sentence,
case-insensitive), split out to keep modules short. Each rule is named by the observation, never by a
cause; what a fact means for each cause is the catalog's `facts` tables.

May import: nothing of ours but `_fact_words` (its shared fragments).
"""

# ruff: noqa: E501  (a table of regular expressions: one pattern per line reads better than split strings)

from __future__ import annotations

from debug_agent.engine._fact_words import TRAIN, VAL

RULES: list[tuple[str, str, list[str]]] = [
    ("grads_accumulate", "gradients add up across backward calls or grow linearly with the step count", [
        r"(?:grad\w*(?: norms?)?|\bit|norms?|updates?).{0,60}(?:grow\w*|increas\w*|ris\w*|climb\w*) (?:roughly |almost |nearly )?(?:linearly|in proportion) (?:with|to) (?:the )?(?:step|iteration|number of (?:steps|iterations|backward))",
        r"\b(?:step|iteration|iter|batch) ([knt])\b.{0,40}\b(?:about |roughly |almost |nearly )?\1 ?(?:times|x)\b",
        r"backward.{0,40}(?:twice|two times|again).{0,90}(?:double|twice|2x|two times)",
        r"grad\w*.{0,30}(?:pil\w* up|keeps? accumulating|add(?:s|ing)? up|(?:are |were )?never (?:cleared|reset|zeroed))",
        r"(?:grad\w*|norm)\b.{0,40}(?:bigger|larger|greater) than (?:the )?(?:last|previous|one before)",
        r"grad\w*.{0,60}(?:still|left over|carried over|remain\w*|linger\w*)(?: be| sit\w*| there)? (?:in|from|at|on|into) .{0,40}(?:step|iteration|batch|buffer)",
    ]),
    ("grads_nonzero", "the gradients are non-zero", [
        r"grad\w*.{0,30}(?:are |is )?(?:non-?zero|not zero|finite and non-?zero|do flow|flow fine|look fine|look normal)",
        r"(?:update|step|grad\w*)\w*(?: sizes?| norms?)? (?:keeps? getting|gets?|grows?|becom\w*) (?:larger|bigger|longer) (?:every|each|with every|with each) (?:step|iteration|update|batch)",
    ]),
    ("update_too_large", "each update moves the model a lot", [
        r"(?:\bkl\b|update|step size|weight change|policy change)\w*.{0,50}(?:huge|enormous|very large|massive|too (?:big|large))",
        r"(?:entropy|probabilit\w*).{0,30}(?:drops?|collaps\w*|falls?) to (?:~|about |almost )?(?:0|zero)\b.{0,40}(?:after|within) (?:a |one |two |\d+ )?(?:handful|few|couple|update|step|iteration)",
    ]),
    ("units_dead", "hidden units output zero for every input", [
        r"(?:hidden|relu|units?|neurons?|activations?|layer)\b.{0,40}(?:all|exactly|always) (?:zeros?|0)\b(?:.{0,30}(?:for|on) (?:the whole|every|all|each))?",
        r"\d+ (?:of|out of) \d+ (?:units|neurons|channels|filters|relus|activations)?.{0,40}(?:never|don't|do not) (?:fire|activate)|dead (?:relus?|units|neurons)|never (?:fire|activate)",
    ]),
    ("units_saturated", "activations saturate (outputs pinned at their limits)", [
        r"(?:sigmoid|tanh|activations?|outputs?|units?).{0,40}(?:exactly|all|pinned at|stuck at|saturated at) (?:0 or 1|-1 or 1|±1|\+-1)",
        r"(?:saturat\w*) (?:sigmoid|tanh|activation|units?|neurons?|filters?)|(?:sigmoid|tanh|filters?|units?|neurons?)\b.{0,30}\bsaturat\w*",
        r"pre-?activations?.{0,30}(?:in the (?:hundreds|thousands)|huge|enormous|very large)",
    ]),
    ("from_init", "the problem is there from initialisation, before any training", [
        r"(?:right )?(?:from|at|since) (?:the )?initiali[sz]ation|before any training|out of the box|at init\b|(?:at|from) step 0\b|untrained model",
    ]),
    ("grows_with_depth", "activations or gradients grow layer by layer", [
        r"(?:activation|output|std|variance|norm|magnitude|scale|grad)\w*.{0,40}(?:grows?|increas\w*|doubl\w*|multipl\w*|explod\w*|blows? up) (?:with|by|per|at|for|across|layer by)? ?(?:each|every|the|each successive|every successive)? ?(?:depth|layers?|blocks?)\b",
    ]),
    ("length_blows_up", "a longer sequence (or unroll) alone makes the loss blow up", [
        r"(?:rais\w*|increas\w*|longer|doubl\w*|go\w* up|bump\w*)\b.{0,30}\b(?:sequence|seq|context|window|unroll|bptt)\w*(?: length| len)?\b.{0,90}(?:\bnan\b|\binf\b|explod\w*|diverg\w*|blow\w* up|\d{3,})",
    ]),
    ("shrinks_with_depth", "activations or gradients shrink layer by layer", [
        r"(?:activation|output|std|variance|norm|magnitude|scale|grad)\w*.{0,40}(?:shrinks?|decreas\w*|halv\w*|decay\w*|vanish\w*) (?:with|by|per|at|for|across|layer by|towards the (?:input|first|early))? ?(?:each|every|the|each successive|every successive)? ?(?:depth|layers?|blocks?)\b",
    ]),
    ("long_range_fails", "dependencies over long spans are not learned", [
        r"(?:dependenc\w*|context|information) (?:over|from|across) (?:the )?(?:last|recent) ~?\d+ (?:steps|tokens|timesteps|frames) only|only (?:the )?last ~?\d+ (?:steps|tokens|timesteps)",
        r"(?:depends? on|from) (?:the )?(?:first|earliest|early|distant|beginning) (?:token|step|timestep|frame|part|element)s?.{0,60}(?:chance|fails?|can't|cannot|not learn\w*|never)",
    ]),
    ("non_torch_op", "part of the loss or forward goes through numpy, scipy or Python numbers", [
        r"\b(?:numpy|scipy|np\.|python floats?|sklearn)\b|\.(?:item|numpy|tolist)\(\)",
        r"\.detach\(\)|\.data\b|torch\.no_grad|with no_grad|inside (?:a )?no_grad|requires_grad\s*=\s*false on the (?:loss|output)",
    ]),
    ("term_no_gradient", "a loss term or part of the model contributes no gradient", [
        r"(?:not|never|doesn't|does not|isn't|is not) (?:contribut\w*|providing|giving|sending) (?:any )?(?:gradient|grad)",
        r"(?:remov\w*|dropp\w*|without) (?:it|the \w+ (?:term|loss)).{0,60}(?:bit-?identical|exactly the same|identical) (?:weights|results|training|parameters)",
    ]),
    ("reference_impl_works", "swapping in a library or reference implementation makes it train normally", [
        r"(?:swap|replac|switch)\w* (?:my |our |the )?(?:\w+ )?(?:module|layer|block|implementation|attention|loss|op)\w* (?:for|with|to) (?:nn\.|torch\.|the (?:library|built-?in|reference|official)|a (?:library|built-?in|reference))",
        r"(?:nn\.\w+|built-?in|library|reference|official) (?:version|implementation|module|layer)?.{0,30}(?:trains?|works?|learns?) (?:normally|fine|well)",
    ]),
    ("heads_dependent", "the result changes with the number of heads (one head is fine)", [
        r"(?:num_heads|n_heads|nhead|heads?)\s*(?:=|of|with)?\s*1\b.{0,80}(?:match\w*|same|fine|works?|identical|exactly)",
        r"with (?:a single|one|1) head.{0,80}(?:match\w*|same|fine|works?|identical)",
        r"(?:split\w*|merg\w*|reshap\w*) (?:the )?heads",
    ]),
    ("pairwise_shape", "a tensor that should have N elements has N x N (the batch axis appears twice)", [
        r"\bn ?\* ?n\b|\bn ?x ?n\b|n\^2|n²|\bb ?x ?b\b|\bbatch ?x ?batch\b|(?:square|pairwise) (?:matrix|tensor) of (?:every|all)",
        r"(?:memory|size|elements?)\b.{0,60}(?:grows?|scales?|increases?)\b.{0,30}(?:batch[ _]size|batch)\b.{0,10}(?:squared|\^ ?2|²)|quadratic\w* (?:in|with) (?:the )?batch",
    ]),
    ("metric_batch_size_dependent", "the evaluation metric of one model changes with the evaluation batch size alone", [
        r"(?:accuracy|metric|score|recall|precision|\bf1\b|\bmap\b|\bauc\b|\bwer\b|\bmrr\b)\b.{0,100}(?:chang\w*|differ\w*|vary|varies|different|drops?|jumps?)\b.{0,60}(?:test|eval\w*|val\w*|inference)\w*(?: (?:data)?loader'?s?)? batch[ _-]?size",
        r"batch[ _-]?size (?:of )?\d+.{0,80}(?:while|but|whereas|yet)\b.{0,60}(?:same model|same checkpoint|same weights).{0,40}batch[ _-]?size (?:of )?\d+",
        r"(?:same model|same checkpoint|same weights).{0,60}batch[ _-]?size (?:of )?\d+.{0,30}(?:reports?|gives?|shows?|scores?)",
    ]),
    ("not_equivariant", "reordering the positions changes the outputs themselves, not just their order", [
        r"(?:shuffl\w*|permut\w*|reorder\w*|swap\w*) (?:the )?(?:input )?(?:tokens|positions|sequence|elements|points|nodes|inputs|items|frames|words)\b.{0,100}(?:does not|doesn't|not|no longer) (?:just |simply |only )?(?:shuffle|permute|reorder|swap)",
        r"(?:outputs?|embeddings|vectors|results|features) themselves (?:change|differ)",
    ]),
    ("worse_than_reference", "results fall short of a released, published or reference model", [
        r"(?:worse|blurr\w*|lower|behind|below|not as good|far from|smeared|poorer|weaker)\b.{0,80}(?:than|compared (?:with|to)|vs\.?) (?:the )?(?:released|published|paper'?s?|pretrained|official|reference|authors?'?s?|reported|original)\b",
        r"(?:compared (?:with|to)|vs\.?|than) (?:the )?(?:released|published|official|authors?'?s?|original) (?:model|checkpoint|weights|results|numbers)",
    ]),
    ("size_warning", "a size-mismatch warning from the loss was printed", [
        r"(?:user)?warning\b.{0,40}\b(?:sizes?|shapes?)\b|\b(?:size|shape)s?\b.{0,20}\bwarning|target size .{0,40}different|using a target size",
    ]),
    ("forward_finite_loss_not", "the forward pass is finite but the loss is NaN/Inf", [
        r"(?:logits|outputs?|activations|forward(?: pass)?|predictions)\b.{0,20}(?:are |is |look |all |were )*(?:finite|fine|normal)\b.{0,60}(?:no (?:nan|inf)|normal magnitudes|finite)",
        r"no (?:nan|inf)s? (?:anywhere )?in the (?:forward|logits|model|outputs|activations)",
    ]),
    ("early_layers_barely", "early layers change only slightly while later layers change a lot", [
        r"(?:early|first|lower|bottom|input-side) (?:few )?(?:layers?|blocks?|stages?)\b.{0,30}(?:barely|hardly|only slightly|very little|much less|tiny)",
        r"(?:last|final|later|top|output) layers?\W?s? (?:weights )?(?:changed|moved|learn\w*|updat\w*) a lot",
    ]),
    ("pipeline_breaks_pairing", "a relation between inputs and targets seen in the raw data is gone in the batches", [
        r"(?:raw|original|csv|file|source|on disk|dataframe|spreadsheet).{0,80}(?:but|while|whereas).{0,40}(?:inside|in|from|after) (?:the )?(?:data ?loader|batches|pipeline|dataset|collat\w*|training loop)",
    ]),
    ("val_tracks_train", "validation numbers follow the training numbers exactly", [
        VAL + r"\w* (?:loss|accuracy|acc|metrics?|curve)? ?(?:tracks|follows|mirrors|matches|equals|is identical to|is the same as|copies) (?:the )?" + TRAIN + r".{0,30}(?:exactly|perfectly|precisely|to the \w+ decimal|step for step)",
        r"(?:goes|keeps going|keep going) down with it",
    ]),
    ("needs_tiny_lr", "training only works with a tiny learning rate", [
        r"only (?:works|goes down|trains|converges|learns|is stable|decreases) (?:when|if|with|at) .{0,20}(?:learning rate|\blr\b)",
    ]),
    ("pad_changes_real_outputs", "outputs at real tokens change with the padding", [
        r"(?:outputs?|predictions?|logits|results?|hidden states?) (?:at|for|on) (?:the )?(?:real|non-?pad\w*|actual|unpadded) (?:tokens?|positions?).{0,40}(?:depend\w*|chang\w*|differ\w*|vary|varies)",
        r"depend\w* on (?:which|the) pad(?:ding)? (?:token|id|value|side)|(?:left|right)[- ]padding.{0,40}(?:different|differ\w*|changes?)",
    ]),
    ("terminal_value_wrong", "the value or return computed at an episode's last step is wrong", [
        r"(?:returns?|values?|targets?|q[- ]?values?)\b.{0,40}(?:crash|terminal|final|last|done|end|death|goal)\w* (?:step|state|transition|frame).{0,40}(?:positive|negative|wrong|too (?:high|large|low)|not zero|nonzero|non-zero|bootstrap\w*)",
    ]),
    ("matches_reference", "the results match a baseline or published reference", [
        r"(?:matches|on par with|as good as|same as|in line with|close to) (?:the |our |what the )?(?:baseline|reference|paper|published|expected|literature)",
    ]),
    # --- broader readings written from what each kind of bug makes people report (not from any example)
    ("layout_words", "the order of tensor axes (channels, batch or time first) comes up", [
        r"\b(?:hwc|chw|nhwc|nchw|channels?[- _]last|channels?[- _]first|batch_first|seq(?:uence)?[- _]first|time[- _]major|axis order|order of (?:the )?(?:axes|dimensions|dims))\b",
    ]),
    ("looks_scrambled", "inputs or outputs look scrambled when plotted or inspected", [
        r"\b(?:scrambl\w*|garbl\w*|jumbl\w*|interleav\w* (?:pixels|channels|rows|columns|frames|patches)|shuffled pixels|mixed[- ]up (?:pixels|channels|patches|rows|frames)|stripes|tiles? (?:in the )?wrong (?:place|order))\b",
    ]),
    ("sums_over_wrong_axis", "probabilities sum to one over the wrong axis", [
        r"(?:soft|log_?soft)max\w*.{0,40}(?:dim|axis)\s*=\s*0\b|(?:each |every )?(?:column|class|batch)\w* (?:of (?:the )?(?:output|probabilit\w*) )?sums? to (?:one|1)\b|sums? to (?:one|1) (?:over|across|along) (?:the )?batch|softmax (?:over|across|along) (?:the )?batch",
    ]),
    ("nothing_counted", "no element is counted in the loss (an empty mask or a zero count)", [
        r"(?:mask|number of (?:valid|non-?pad\w*|unmasked|real) (?:tokens|labels|elements)|denominator|count of (?:valid|unmasked))\w*.{0,30}(?:is |are |=\s*|sums? to |comes out )(?:0|zero)(?![.\d])",
        r"(?:all|every) (?:labels?|targets?|tokens?)\b.{0,40}(?:-100|masked|ignored|ignore_index)",
    ]),
    ("low_precision", "half precision or mixed precision", [r"\b(?:fp16|float16|half[- ]precision|\.half\(\)|mixed[- ]precision|\bamp\b|autocast|gradscaler)\b"]),
    ("math_edge", "a log, exp, division or square root at its edge (log 0, overflow, divide by 0)", [
        r"log(?:\(| of )(?:0|zero)\b|exp\w* overflow\w*|overflow\w* in exp|divi(?:de|sion) by (?:0|zero)\b|sqrt(?:\(| of )(?:0|zero)\b|norm of (?:a )?zero|0 ?/ ?0|\binf ?- ?inf\b",
    ]),
    ("lower_lr_helps", "a smaller learning rate makes it go away", [
        r"(?:lower\w*|smaller|reduc\w*|decreas\w*|divid\w*|cut\w*) (?:the )?(?:learning rate|\blr\b).{0,50}(?:fix\w*|help\w*|solv\w*|stabili[sz]\w*|go(?:es)? away|went away|disappear\w*|works?|prevents?|no (?:more )?(?:nan|spikes?|divergence))",
        r"(?:with|at) (?:a )?(?:(?:\w+ )?(?:times|x) )?(?:lower|smaller) (?:learning rate|\blr\b).{0,40}(?:fine|works?|stable|trains?|converges?|no (?:nan|spikes?))",
        r"(?:learning rate|\blr\b) (?:\d+ ?(?:x|times) )?(?:lower|smaller).{0,40}(?:fine|works?|stable|trains?|converges?|no (?:nan|spikes?))",
    ]),
    ("higher_lr_helps", "a larger learning rate makes it train", [
        r"(?:rais\w*|increas\w*|bigger|larger|higher|doubl\w*|multipl\w*) (?:the )?(?:learning rate|\blr\b).{0,50}(?:fix\w*|help\w*|solv\w*|faster|works?|learns?|trains?|finally (?:moves|learns|drops))",
        r"(?:with|at) (?:a )?(?:higher|larger|bigger) (?:learning rate|\blr\b)(?:(?!no longer|\bnot\b|n't|never|fail|stops?\b|worse).){0,40}(?:fine|works?|learns?|trains?|converges?|much faster)",
    ]),
    ("loss_identical_every_step", "the loss is exactly the same value at every step", [
        r"(?:same|identical|exact same) (?:loss )?(?:value|number) (?:at |on )?(?:every|each|all) (?:step|iteration|epoch|batch)",
        r"loss (?:is |stays |prints )?(?:exactly |precisely )?(?:the same|identical|constant|unchanged) (?:at |on |for |in )?(?:every|each|all) (?:step|iteration|epoch|batch)",
        r"(?:to|at) (?:the )?(?:\d+|four|five|six|seven|eight)(?:th)? decimals?\b",
    ]),
    ("optimizer_setup_suspect", "the optimizer may not hold the model's parameters", [
        r"optimi[sz]er.{0,60}(?:empty|no param\w*|missing|created before|built before|old model|another (?:model|copy)|copy of the model|different (?:model|copy)|not (?:includ|contain|hold|get)\w*)",
        r"(?:param_groups|parameters\(\)).{0,40}(?:empty|missing|only|don't include|do not include)",
    ]),
    ("trainable_count_full", "the trainable parameter count equals the full model", [
        r"(?:trainable|number of trainable|requires_grad) param\w*.{0,50}(?:same as|equal\w*|all of|the total|full|every|as many as|unchanged)",
        r"(?:memory|time per step|step time|optimi[sz]er state)\w*.{0,50}(?:same as|as (?:high|large|much|long) as|identical to|equal to) (?:a |the )?(?:full|unfrozen|phase 2|full fine-?tun\w*)",
    ]),
    ("clipping_helps", "gradient clipping makes it go away", [
        r"(?:clip\w*|clip_grad\w*|gradient clipping|max_norm).{0,50}(?:fix\w*|help\w*|solv\w*|stabili[sz]\w*|goes away|went away|works?|prevents?|no (?:more )?(?:nan|spikes?))",
    ]),
    ("data_overlap", "the same examples are in the training and evaluation data", [
        r"(?:duplicat\w*|overlap\w*|(?:same|identical) (?:images|rows|samples|examples|sentences|records|files)).{0,60}(?:train\w*|test\w*|val\w*|splits?)",
        r"(?:samples?|examples?|rows?|images?|items?|records?|recordings?|clips?|files?|sentences?|documents?|ids?|indices)\b.{0,30}(?:show up|turn up|appear\w*|present|occur\w*|found|are|is) in both (?:the )?(?:train|test|val|splits|sets)",
        r"random(?:ly)? split\w*.{0,30}time[- ]?series|shuffl\w* before (?:the )?split\w*|split\w* after (?:augment\w*|oversampl\w*|upsampl\w*|normali[sz]\w*|smote)",
        r"(?:feature|column|input)s?\b.{0,40}(?:is|are|encodes?|derived from|computed from|contains?) (?:the |a copy of the )?(?:target|label|answer|outcome)\b",
    ]),
    ("clearing_cache_helps", "deleting a cache or restarting makes a change take effect", [
        r"(?:delet\w*|clear\w*|remov\w*|wip\w*|invalidat\w*|rebuild\w*|regenerat\w*) (?:the )?(?:cache|cached|\.cache|preprocessed|saved|pickled)\w*",
        r"still (?:the )?old (?:version|values?|data|preprocessing|vocab\w*|tokeni[sz]\w*|features?|labels?|images?|size|shape|config)",
    ]),
    ("state_carried", "a hidden state or buffer is carried over between calls", [
        r"(?:hidden|recurrent|internal|cached|kv[- ]?)\s?(?:state|cache|memory|buffer)s?\b.{0,40}(?:not reset|never reset|carried|kept|persist\w*|reused|leak\w*|grows?|accumulat\w*)",
        r"(?:not|never|forgot to|without) reset\w* (?:the )?(?:hidden|state|memory|buffer|cache)",
    ]),
    ("grad_check_fails", "analytic and numerical gradients disagree", [
        r"(?:finite[- ]differences?|numerical(?:ly)? (?:gradients?|estimated?)|gradcheck|grad check).{0,60}(?:differ\w*|mismatch\w*|don't match|do not match|doesn't match|does not match|fail\w*|wrong|disagree\w*|off by|opposite sign)",
        r"(?:analytic\w*|autograd|backward)\w* (?:gradient|grad)s?.{0,40}(?:differ\w*|mismatch\w*|don't match|do not match|disagree\w*|wrong sign|opposite sign).{0,40}(?:finite|numeric\w*)",
    ]),
    ("zero_init", "weights initialised to zero or to one constant", [
        r"(?:initiali[sz]\w*|init)\b.{0,30}(?:to|with|as|at) (?:all )?(?:zeros?|0|a constant|the same (?:value|constant)|ones)\b|(?:zeros_|constant_)\(|all (?:weights|neurons|units) (?:are )?(?:identical|the same)",
    ]),
    ("small_dataset", "a small training set", [
        r"(?:only|just) (?:have |had |got |use |used )?(?:a few |about |~|around )?(?:\d{2,4}|a (?:few )?dozen|a hundred|a few hundred|a couple (?:of )?hundred|a few thousand) (?:training |labell?ed )?(?:examples|samples|images|rows|sentences|records|patients|documents)|(?:small|tiny) (?:training )?(?:dataset|data set|training set)",
    ]),
    ("padding_changes_output", "the prediction for an example changes with how much padding it gets", [
        r"\bpad\w*.{0,80}(?:depend\w*|chang\w*|differ\w*|worse|affect\w*)",
        r"(?:depend\w*|chang\w*|differ\w*|worse)\b.{0,80}(?:\bpad\w*|longest (?:one|sentence|sequence|utterance|clip)|much longer ones|dummy (?:nodes|tokens|points)|padded (?:frames|positions|points|nodes))",
        r"(?:attention|weight)\w*\b.{0,40}(?:on|to) (?:the )?(?:\bpad\w*|dummy) ",
    ]),
    ("norm_stats_unchanged", "batch-norm running statistics never move during training", [
        r"running[_ ](?:mean|var)\w*.{0,80}(?:still|unchanged|never (?:change|move|update)\w*|exactly the|same as|initial|imagenet)",
        r"(?:\bbn\b|batch ?norm)\w*(?: layers?)?.{0,40}(?:frozen|never updat\w*|not (?:being )?updat\w*|unchanged|seem frozen)",
    ]),
    ("inference_path_in_training", "training goes through an inference or evaluation helper", [
        r"(?:inference|eval\w*|predict\w*)[_ ]?(?:helper|function|mode|path|wrapper)\b.{0,80}(?:train|resum|continu)",
        r"(?:train|resum)\w*.{0,80}(?:for_inference|inference helper|load_for_inference|eval helper|shared with (?:my |the )?(?:inference|eval))",
    ]),
    ("output_unrelated_to_input", "outputs belong to other inputs (each input gets another example's answer)", [
        r"nothing to do with (?:the |its |their )?(?:\w+ )?(?:input|source|image|audio|clip|sentence)",
        r"(?:label|transcript|caption|target|annotation|box)\w* (?:for|of) (?:clip|image|sample|item|row|example) \w+ (?:seems|is|looks|appears)\b.{0,40}(?:different|another|other)",
        r"(?:first|some) (?:few )?(?:hundred |\d+ )?rows (?:match|line up).{0,40}(?:later|others|rest)\b.{0,30}(?:don't|do not|doesn't|not)",
    ]),
    ("labels_reordered_apart", "inputs and labels are sorted, filtered or augmented on their own", [
        r"(?:listdir|glob\w*|sort\w*|drop\w* (?:the )?rows|dropna|filter\w*|dedup\w*|shuffl\w*).{0,80}(?:labels?|targets?|transcripts?|annotations?|captions?|csv)\b",
        r"(?:labels?|targets?|boxes|annotations?|masks?)\b.{0,60}(?:loaded separately|separately|not touched|untouched|not transformed|not flipped)",
    ]),
    ("asks_train_longer", "the user wonders whether more training is all it needs", [
        r"(?:need|have|ought) to train (?:it |the model )?(?:much |a lot |way |even )?(?:longer|more)",
        r"train(?:ing)? (?:it |the model )?(?:much |a lot |way |even )?longer\s*\?|(?:more|longer) (?:epochs|iterations|steps|training)\s*\?",
        r"(?:just|simply|only) (?:need|needs) (?:more|longer) (?:training|epochs|steps|iterations|time)",
        r"how (?:many|long)(?: epochs| iterations| steps| hours| days)? (?:did|do|should|does|would) (?:you|they|it|one|i|the authors) (?:\w+ )?train",
    ]),
    ("setting_no_effect", "a loss weight or setting changes nothing at all, whatever its value", [
        r"(?:whatever|any|no matter what) (?:value|weight|coefficient|setting)s?\b.{0,80}(?:exactly|precisely|completely|identical|the same|no (?:effect|difference|change))",
        r"(?:weight|coefficient|lambda|factor) (?:of|for|on) (?:the |this |that )?(?:\w+ ){0,3}(?:term|loss)\b.{0,60}(?:no effect|makes? no difference|changes? nothing|exactly the same)|^(?!.*\bdropout\b).*?\d(?:, ?[\d.e-]+)*,? (?:and|or) [\d.e-]+ (?:all )?(?:give|gives|gave|produce|yield)\w* (?:bit-?identical|identical|exactly the same)|(?:loss|term) (?:weight|coefficient) (?:has|have|had) (?:zero|no) effect",
    ]),
    ("stale_artifacts", "data files or ids come from an older version of the preprocessing", [
        r"(?:modification|modified) (?:dates?|times?)|(?:ids|tokens|features|files)\b.{0,40}(?:look|are|come|seem)\w* (?:like )?(?:from )?(?:the )?old (?:vocab|version|tokeni[sz]\w*|config|run)",
        r"(?:from|of) (?:the|an) (?:old|previous|earlier) (?:run|version|config|vocab\w*|preprocessing)",
    ]),
    ("fixed_weights_changed", "weights meant to stay fixed changed during training", [
        r"(?:backbone|embedding|encoder|frozen|pretrained|fixed)\w*(?: \w+){0,3} (?:weights?|table|vectors?|layers?)\b.{0,30}(?:are|were|is|got|have) (?:\w+ )?(?:different|changed|moved|drift\w*|updat\w*)",
        r"weights? (?:are|were) (?:\w+ )?different from (?:the )?(?:pretrained|file|original|checkpoint|loaded)",
    ]),
    ("metric_contradicts_outputs", "the reported metric and the outputs, looked at, disagree", [
        r"(?:reported|logged|printed|shows?|metric|iou|wer|bleu|accuracy|f1)\b.{0,80}(?:but|yet|while)\b.{0,60}(?:look|are|read|is)\w* (?:\w+ )?(?:wrong|bad|blobs|garbage|poor|off)",
    ]),
    # --- topic words: which part of the training set-up the report is about (weak evidence, broad reading)
    ("freeze_mentioned", "freezing, adapters or partial fine-tuning", [
        r"\bfrozen\b(?!\s+(?:at|around|near)\b)|\bfreez\w*+(?!\s+(?:around|at|near|on|in place)\b)|requires_grad|\blora\b|\badapters?\b|linear prob\w*|\bpeft\b|fine-?tun\w* only|only (?:the )?(?:head|classifier|last layers?) (?:is |are )?(?:trained|trainable)",
    ]),
    ("init_mentioned", "weight initialisation", [r"\binit\b|initiali[sz]\w*|kaiming|xavier|glorot|he[- ]init|\.weight\.data|(?:weight|bias) init\w*|reset_parameters"]),
    ("split_mentioned", "how the data was split into training and evaluation sets", [
        r"\b(?:train[-/ ]?(?:test|val\w*) split|split\w* (?:the )?(?:data|dataset)|k-?fold|cross-?validat\w*|hold-?out set|test set|random_split|train_test_split|stratif\w*)\b",
    ]),
    ("dim_mentioned", "a dimension or axis argument", [r"\b(?:dim|axis)\s*=|\bdimension\b|\bwrong axis\b|\bover (?:the )?(?:batch|class(?:es)?|feature) (?:axis|dim\w*)"]),
    ("mask_mentioned", "an attention or causal mask", [r"\bmask(?!\s*r-?cnn)\w*|\bcausal\b|\btriu\b|\btril\b|is_causal|look-?ahead"]),
    ("zero_grad_mentioned", "clearing gradients or stepping the optimizer", [r"zero_grad|optimi[sz]er\.step|set_to_none|\.grad\s*=\s*none|clear\w* (?:the )?grad\w*"]),
    ("label_pipeline_mentioned", "how labels are built or paired with inputs", [
        r"(?:labels?|targets?|annotations?)\b.{0,40}(?:shift\w*|align\w*|pair\w*|order\w*|shuffl\w*|sort\w*|collat\w*|zip\w*|index\w*|mapping|map\b|encod\w*)",
        r"(?:shift\w*|align\w*|shuffl\w*|sort\w*|collat\w*|zip\w*|index\w*|encod\w*) (?:the )?(?:labels?|targets?)",
    ]),
    ("train_mode_not_restored", "evaluation switches the model to eval mode and training never switches back", [
        r"(?:never|not|forgot to|doesn't|does not|don't|do not|without) (?:\w+ )?(?:switch\w*|set\w*|go\w*|put\w*|turn\w*|chang\w*) (?:it |the model |them )?back",
        r"(?:never|forgot to|don't|do not|doesn't|does not|without) (?:re-?)?call\w* (?:model\.)?train\(\)|model\.train\(\) (?:is )?(?:never|not) (?:called|restored)",
    ]),
    ("tiny_updates", "weights change, but only by a minute amount", [
        r"(?:weights?|param\w*)\b.{0,40}(?:change|move)\w*.{0,40}(?:only )?(?:at|in|around|by) (?:the )?(?:\d+(?:st|nd|rd|th)|sixth|seventh|eighth) decimal",
        r"(?:weights?|param\w*)\b.{0,30}(?:change|move)\w* (?:only )?(?:by )?(?:a )?(?:tiny|minuscule|negligible|1e-\d)",
        r"(?:weights?|param\w*)\b.{0,30}(?:barely|hardly|only slightly|only a little) (?:\w+ )?(?:moved|changed|updated|move|change)",
    ]),
    ("no_better_than_pretrained", "training did not move the model beyond where it started", [
        r"(?:what|as) the (?:pretrained|base|initial|original) model (?:gives|gets|scores|had|does)|same as (?:zero-?shot|before fine-?tuning|the pretrained)",
    ]),
    # --- more readings of known facts (same ids as rules above or in _fact_words: any pattern may show it)
    ("probs_into_logloss", "probabilities (softmax output) fed to a loss or distribution that expects logits or log-probabilities", [
        r"softmax\w*\b.{0,80}\b(?:nll\w*|cross[_ ]?entropy\w*|crossentropyloss|categorical\(\s*logits)",
        r"(?:nll\w*|cross[_ ]?entropy\w*)\b.{0,60}\bon (?:the |those |these )?(?:softmax\w*|probabilit\w*)",
        r"logits\s*=\s*(?:probs|probabilities|softmax)",
    ]),
    ("reference_impl_works", "swapping in a library or reference implementation makes it train normally", [
        r"(?:replac|swap|switch)\w* (?:it|them|this|that|mine|my \w+(?: \w+)?) (?:with|for|to|by) (?:the |a )?(?:dense |built-?in |library |official |reference |standard |plain |stock )?(?:torch\.\w+|nn\.\w+|f\.\w+|pytorch'?s?|library|built-?in)",
    ]),
    ("attention_saturated", "attention weights collapse onto one position", [
        r"(?:softmax inputs?|pre-?softmax|attention (?:scores?|logits))\b.{0,30}(?:\+-|±|around|about|of|reach\w*|up to|are)\s*~?\s*\d{2,}",
    ]),
    ("frozen_still_change", "layers meant to be frozen still change", [
        r"(?:expect\w*|meant|supposed|want\w*|assum\w*) (?:it |them |the \w+ )?to (?:stay|remain|be|keep) (?:fixed|frozen|constant|unchanged|the same).{0,120}(?:moved|changed|drift\w*|updated|differ\w*)",
        r"optimi[sz]er\b.{0,40}(?:built|created|constructed|made|initiali[sz]ed)? ?(?:from|with|on|over) (?:\w+\.)?parameters\(\).{0,60}(?:both|teacher|frozen|backbone|wraps|includ\w*|as well)",
    ]),
    ("order_dependent", "results depend on what was processed before", [
        r"restart\w* (?:the )?(?:process|kernel|session|script|program|server|model)\b.{0,60}(?:gives|fixes|works|fine|correct|back|again)",
        r"(?:every|each) (?:file|episode|sequence|request|batch|call|utterance|clip|document) after the first\b.{0,60}(?:worse|different|differ\w*|wrong|degrad\w*)",
        r"as if (?:it (?:were|was) )?still in the (?:previous|last|prior|old)",
    ]),
    ("metric_recomputed_differs", "the same metric computed another way gives a different number", [
        r"(?:confusion matrix|by hand|manually)\b.{0,80}(?:looks?|seems?|is|are) (?:good|fine|right|correct|ok|sensible)",
    ]),
    ("scales_with_count", "the loss or update grows with the number of accumulated (micro)batches", [
        r"accum\w*\s*(\d+)\b.{0,30}(?:like|as) (?:lr|the learning rate|a learning rate) ?(?:x|×|times) ?\1\b",
    ]),
    ("loss_depends_padding", "the loss depends on how much padding a batch has", [
        r"(?:bucket\w*|sort\w* by length|length[- ]sorted|sorted by length)\b.{0,80}(?:loss|ppl|perplexity)\b.{0,40}(?:higher|lower|differ\w*|changes?|\d+ ?x)",
    ]),
    ("regularisation_helps", "adding regularisation (dropout, weight decay, augmentation) narrows the train/val gap", [
        r"(?:adding|add|added|with|more|stronger|turning on) (?:\w+ )?(?:weight decay|dropout|augmentation|regulari[sz]ation|l2|early stopping)\b.{0,80}(?:helps?|helped|improv\w*|takes|took|brings|raises|goes up|better|closes|narrows)",
    ]),
    ("memorises_training", "outputs copy training examples", [
        r"(?:samples?|outputs?|generations?|generated \w+) (?:look |are )?(?:exactly |nearly |almost )?(?:like|identical to|copies of|the same as) (?:the |my )?training (?:images|data|examples|samples|set)",
        r"nearest[- ]neighbou?r\w*\b.{0,60}(?:identical|same|copies|duplicates|nearly identical)",
        r"memori[sz]\w* (?:the )?(?:training|train) (?:set|data|examples)",
    ]),
    ("split_by_group", "the validation split keeps whole groups (patients, users, speakers) apart", [
        r"split\w* (?:is |was |are |were )?(?:done )?(?:by|per|on) (?:patient|subject|user|speaker|document|group|session|site|scene)s?\b|(?:patient|subject|user|speaker|group|document)[- ](?:level|wise|disjoint|grouped) split|groupkfold|group k-?fold",
    ]),
    ("noisy_but_improving", "per-batch numbers are noisy while the averaged trend improves", [
        r"(?:jumps?|noisy|fluctuat\w*|bounces?|varies|vary|oscillat\w*|wiggl\w*)\b.{0,80}\bbut\b.{0,60}(?:average|mean|trend|overall|smoothed|epoch)\w*.{0,40}(?:goes down|decreas\w*|improv\w*|falls?|steadily|smooth\w*)",
    ]),
    ("seed_variance", "runs differ from seed to seed but all reach the goal", [
        r"(?:vary|varies|differ\w*|spread)\b.{0,40}(?:between|across|from) (?:random )?seeds|seed to seed",
        r"(?:every|all|each) (?:of the )?(?:\d+ )?seeds? (?:\w+ )?(?:solve|reach|converge|get there|end up|succeed)",
    ]),
    ("tiny_updates", "weights change, but only by a minute amount", [
        r"(?:relative update|update[- ]to[- ]weight|update ratio|\|\|?d ?w\|\|? ?/ ?\|\|?w\|\|?)\w*\b.{0,60}(?:1e-[6-9]|10\^-[6-9]|tiny|minuscule|negligible)",
    ]),
    ("grad_norm_grows", "gradient norms grow or explode", [r"grad\w*(?: norms?)?.{0,30}overflow\w*"]),
    ("meant_fixed", "weights the user meant to keep fixed (loaded or frozen) are trainable", [
        r"(?:expect\w*|meant|supposed|want\w*|assum\w*|intend\w*) (?:it |them |the \w+ |these \w+ )?to (?:stay|remain|be|keep) (?:fixed|frozen|constant|unchanged|the same)",
    ]),
    ("forward_finite_loss_not", "the forward pass is finite but the loss is NaN/Inf", [
        r"(?:logits|outputs?|activations|predictions)\b.{0,20}(?:have|has|contain\w*|show) no (?:inf|nan)|only the loss (?:does|is|has|goes|becomes)",
    ]),
    ("mask_sum_division", "a loss divided by a mask or count that can be zero", [
        r"divid\w* by (?:the )?(?:mask|count|number of (?:valid|kept|labell?ed|real|non-?pad\w*) \w+)\w*(?: sum)?|/\s*mask\.sum\(\)",
    ]),
    ("loss_zero", "a loss of exactly zero", [
        r"(?:loss|losses)\b.{0,40}\b(?:are|is|were|was|stays?) (?:both |all )?(?:exactly |identically )?(?:zero|0)\b(?!\.\d)",
    ]),
    ("update_too_large", "each update moves the model a lot", [
        r"(?:approx\w* )?\bkl\b.{0,30}(?:0\.[3-9]|[1-9]\d*(?:\.\d+)?\s*\+|huge|explod\w*)|clip (?:fraction|frac)\w*.{0,20}~?\s*0\.[5-9]",
    ]),
    ("optimizer_setup_suspect", "the optimizer may not hold the model's parameters", [
        r"optimi[sz]er\b.{0,40}(?:the )?(?:original|old|unwrapped|other|first) (?:model|module|object|network|instance)|optimi[sz]er\b.{0,40}before (?:wrapping|copying|the copy|deep ?copy\w*)|copy\.deepcopy",
    ]),
    ("argmax_in_loss", "the loss is computed from argmax or one-hot predictions (no gradient)", [
        r"argmax\b.{0,60}(?:one-?hot|loss|dice|iou)|(?:loss|dice|iou)\b.{0,40}(?:on|of|from) (?:the )?(?:argmax|hard (?:labels|predictions))|one-?hot (?:it|them|the argmax|the predictions)",
    ]),
    ("early_grads_tiny", "gradients at the first layers are orders of magnitude smaller than at the last", [
        r"grad\w*(?: norms?)?\b.{0,40}(?:first|early|lower|input|bottom)\b.{0,30}(?:thousands?|hundreds?|orders? of magnitude|\d+ ?x)(?: of times)? smaller",
    ]),
    ("shuffled_time_split", "rows of a time series shuffled before the split", [
        r"^(?=.*\b(?:time[- ]?series|temporal|lag\w*|rolling|stocks?|forecast\w*|daily|hourly|windows?|sequential|days?|timestamps?)\b).*?"
        r"shuffl\w* (?:all |the )?(?:rows|data|samples|examples|windows)?\s*(?:and |then |before )+(?:\w+ )?split",
        r"random(?:ly)? split\w*.{0,60}(?:time[- ]series|temporal|lag|rolling|stock|future|forecast)",
    ]),
    ("raw_inputs", "inputs fed in raw, unstandardised units", [
        r"(?:replac\w*|instead of|without|dropp\w*|remov\w*) (?:the )?(?:transforms\.)?totensor|from_numpy\(\w+\)\.float\(\)",
    ]),
    ("causal_conv_padding", "centred ('same') padding in a model that must not see the future", [
        r"padding\s*=\s*['\"]?same\b.{0,100}(?:autoregress\w*|causal|wavenet|generat\w*|sample by sample)",
        r"(?:autoregress\w*|causal|wavenet)\b.{0,100}padding\s*=\s*['\"]?same\b",
    ]),
    ("order_dependent", "results depend on what was processed before", [
        r"still ['\"]?remember\w*['\"]? (?:the )?(?:previous|last|prior|old)",
    ]),
    ("metric_counts_padding", "the metric is computed over padded positions", [
        r"(?:wer|cer|bleu|accuracy|metric|f1)\b.{0,40}\bon (?:the )?padded|padding included\b.{0,40}(?:wer|metric|accuracy|bleu)|(?:wer|metric|accuracy|bleu)\b.{0,60}padding included",
    ]),
    ("scheduler_per_batch", "a per-epoch scheduler is stepped or fed every batch", [
        r"(?:scheduler|reducelronplateau|plateau|step_?lr|cosine\w*)\b.{0,60}(?:each|every|per) (?:batch|iteration|step)\b",
        r"(?:pass|feed|give)\w* (?:it |the scheduler )?(?:the )?(?:training )?loss of (?:each|every) batch",
    ]),
    ("split_by_group", "the validation split keeps whole groups (patients, users, speakers) apart", [
        r"(?:speaker|patient|subject|user|group|document|session)[- ](?:disjoint|independent|held[- ]out)|no (?:duplicates|overlap)\w* (?:across|between) (?:the )?splits|split\w* by (?:image )?hash",
    ]),
    ("noisy_but_improving", "per-batch numbers are noisy while the averaged trend improves", [
        r"loss\w*\b.{0,60}(?:oscillat\w*|don't go down|do not go down|never converge\w*|bounce\w*)\b.{0,80}\bbut\b.{0,40}(?:fid|samples?|quality|metric|accuracy|bleu)\w*.{0,40}(?:drops?|improv\w*|better|goes? down)",
    ]),
    ("independent_test_agrees", "a separate test set collected independently gives the same result", [
        r"(?:separate|independent|new|fresh|later|external)\b.{0,30}test set\b.{0,60}(?:also|too|likewise|same|gives|matches|agrees|9\d ?%)",
    ]),
    ("after_first_eval", "behaviour changes right after a validation pass", [
        r"after (?:the |each |every )?(?:first )?(?:test|testing)\b(?: pass| step| epoch| run| loop| call)",
    ]),
    ("nan_sporadic", "single steps log NaN while the steps around them stay normal", [
        r"(?:some|a single|occasional\w*|every so often|sometimes|certain|a few|odd) (?:\w+ )?(?:steps?|batches|iterations?)\b.{0,60}\bnan\b.{0,80}(?:normal again|recovers?|after it are normal|(?:next|following) (?:steps?|batches) (?:are )?(?:fine|normal))",
        r"\bnan\b.{0,60}(?:steps|batches|iterations) (?:after|around) (?:it|that|them) (?:are )?(?:normal|fine)",
        r"(?:every so often|occasionally|now and then|once in a while)\b.{0,30}(?:a single |one )?(?:steps?|batch(?:es)?|iterations?)\b.{0,20}(?:logs?|gives?|shows?|prints?|is|becomes?|turns?)\b.{0,20}\bnan\b",
    ]),
    ("truncation_matters", "it happens more with a shorter maximum sequence length", [
        r"(?:lower|shorter|smaller|reduc\w*|decreas\w*) (?:the )?max(?:imum)?[_ ]?(?:sequence[_ ]|seq[_ ]|input[_ ])?(?:length|len)\b",
    ]),
    ("train_val_plateau_together", "training and validation curves level off together at the same value", [
        r"(?:level\w* off|plateau\w*|flatten\w*|stall\w*|stuck) together|together at (?:about |around )?(?:the )?same (?:value|level|loss)|(?:acc\w*|loss|error|score|cost)\b.{0,20}\b(?:hover\w*|stays?|sits?|stuck|plateau\w*|flat)\b.{0,40}\b(?:on|for|in) both (?:the )?train\w* and (?:the )?(?:test|val\w*|dev|held)",
    ]),
    ("lr_no_help", "changing the learning rate does not help", [
        r"(?:more epochs|longer training)? ?(?:or|and|,)? ?(?:a )?(?:lower|smaller|higher|larger) (?:learning rate|\blr\b)\b.{0,20}(?:don't|doesn't|do not|does not|won't|didn't) (?:move|change|help|fix)|(?:tried|trying) (?:changing|lowering|reducing|tweaking|adjusting|varying) the (?:learning rate|\blr\b)\b.{0,40}\bbut (?:it )?(?:still|keeps|nothing|no (?:luck|change|difference))",
    ]),
    ("outputs_all_zero", "the model outputs exactly zero for every input", [
        r"(?:returns?|outputs?|predicts?|gives?)\w* (?:exactly )?0(?:\.0+)? for (?:every|all|each|any)",
    ]),
    ("seed_dependent_failure", "another random seed sometimes trains normally", [
        r"(?:another|other|different|new) (?:random )?seeds?\b.{0,40}(?:sometimes |often |usually )?(?:trains?|works?|fine|normal\w*|learns?)",
    ]),
    ("loss_depends_padding", "the loss depends on how much padding a batch has", [
        r"(?:only|just) (?:the )?(?:batched|padded|larger)\b.{0,40}(?:has|have|contains?|gets?) (?:\w+ )?pad\w*",
        r"batch size 1\b.{0,100}batch size \d+.{0,80}\bpad\w*",
    ]),
    ("small_model", "a deliberately small or shallow model", [
        r"\b(?:\d|one|two|three)[- ]layers? (?:small |tiny |shallow )?(?:cnn|mlp|network|net|model|convnet|lstm|gru|rnn)|\b(?:small|tiny|shallow) (?:cnn|mlp|convnet)\b",
        r"\b(?:smallest|smaller|tiny|tinier|lightweight|mini)\b (?:\w+ ){0,2}(?:variant|version|config\w*|architecture|backbone|model)\b",
        r"(?:from|instead of) (?:the )?(?:largest|biggest|large|big|full)\b.{0,40}\bto (?:the )?(?:smallest|smaller|small|tiny)\b",
    ]),
]
