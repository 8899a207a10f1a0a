function f testsuite/golden/bitfield.c:12-17
  MT1 BB 13-16
