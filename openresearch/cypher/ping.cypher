// purpose: check that the server answers
// params: -
RETURN 1 AS ok
