// Input of gate-summary.test: a header with a compile error, included by
// two translation units (two units not analysed, one error).
#pragma once
void bad() { undeclared_in_header(); }
