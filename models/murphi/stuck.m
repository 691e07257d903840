-- Two processes that each take one of two resources and wait for the
-- other (written for orbit's tests): a deadlock.
var a, b: boolean; p1, p2: 0..2;
startstate begin a := false; b := false; p1 := 0; p2 := 0; end;
rule "p1 takes a" p1 = 0 & !a ==> begin a := true; p1 := 1; end;
rule "p1 takes b" p1 = 1 & !b ==> begin b := true; p1 := 2; end;
rule "p1 frees" p1 = 2 ==> begin a := false; b := false; p1 := 0; end;
rule "p2 takes b" p2 = 0 & !b ==> begin b := true; p2 := 1; end;
rule "p2 takes a" p2 = 1 & !a ==> begin a := true; p2 := 2; end;
rule "p2 frees" p2 = 2 ==> begin a := false; b := false; p2 := 0; end;
