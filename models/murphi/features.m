-- Exercises the language orbit runs (written for orbit's tests): records,
-- arrays of records, negative ranges, procedures with var parameters,
-- functions, while, switch, for ... by, clear, undefine, isundefined,
-- exists, compound assignment and equality, conditional expressions.

const
  K: 3;
  LOW: -2;

type
  small: LOW..K;
  colour: enum {red, green, blue};
  slot: record
    value: small;
    tint: colour;
  end;

var
  cells: array [0..K-1] of slot;
  spare: slot;
  turns: 0..10;
  last: small;

procedure bump(var s: slot; amount: 1..2);
begin
  if s.value + amount <= K then
    s.value := s.value + amount;
  else
    s.value := LOW;
  endif;
  switch s.tint
    case red: s.tint := green;
    case green, blue: s.tint := (s.tint = green) ? blue : red;
  endswitch;
end;

function total(): -10..20;
var sum: -10..20; i: 0..K;
begin
  sum := 0;
  i := 0;
  while i < K do
    sum := sum + cells[i].value;
    i := i + 1;
  endwhile;
  return sum;
end;

startstate
begin
  for i := 0 to K - 1 by 2 do
    cells[i].value := 0;
    cells[i].tint := red;
  endfor;
  for i := 1 to K - 1 by 2 do
    clear cells[i];
  endfor;
  undefine spare;
  turns := 0;
  undefine last;
end;

ruleset i: 0..K-1; step: 1..2 do
  rule "bump" turns < 4 ==>
  begin
    bump(cells[i], step);
    turns := turns + 1;
    last := total() % K;
  end;
endruleset;

rule "save" isundefined(spare.value) & exists i: 0..K-1 do cells[i].tint = blue endexists ==>
begin
  spare := cells[0];
end;

rule "restore" !isundefined(spare.value) & cells[0] != spare ==>
begin
  cells[0] := spare;
  undefine spare;
end;

invariant "totals stay in range" total() >= -6 & total() <= 9;
invariant total() <= 9 "named after its condition, as Rumur allows";
invariant total() >= -6;

/* Block comments, which CMurphi's examples open with, are read too;
   they end at the first star-slash. */
