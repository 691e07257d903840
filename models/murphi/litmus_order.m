-- A litmus test run on a symmetric set of caches, written the way a
-- generator writes it: the programs are handed out to the caches in the
-- iteration order of a loop over the scalarset. The order makes cache 1
-- different from cache 2, so the declared symmetry is not one.
const
  CACHES: 3;
  PROGRAMS: 2;
type
  Cache: scalarset(CACHES);
  Program: 0..PROGRAMS;          -- 0: idle
  Step: 0..2;
var
  program: array[Cache] of Program;
  pc: array[Cache] of Step;
  x: 0..1;
  y: 0..1;
  done: 0..CACHES;

procedure HandOut();
var next: 0..PROGRAMS + 1;
begin
  next := 1;
  for c: Cache do
    if next <= PROGRAMS then
      program[c] := next;
      next := next + 1;
    else
      program[c] := 0;
    endif;
    pc[c] := 0;
  endfor;
  x := 0; y := 0; done := 0;
end;

startstate
  HandOut();
endstartstate;

ruleset c: Cache do
  rule "store x, then load y" program[c] = 1 & pc[c] = 0 ==>
    x := 1; pc[c] := 1;
  endrule;
  rule "store y, then load x" program[c] = 2 & pc[c] = 0 ==>
    y := 1; pc[c] := 1;
  endrule;
  rule "finish" program[c] != 0 & pc[c] = 1 ==>
    pc[c] := 2; done := done + 1;
  endrule;
endruleset;

rule "run the test again" done = PROGRAMS ==>
  HandOut();
endrule;

invariant "a program runs on every busy cache"
  forall c: Cache do pc[c] != 0 -> program[c] != 0 endforall;
