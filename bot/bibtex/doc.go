// Package bibtex writes BibTeX entries that BibTeX, biber and bibtool read:
// stable keys (first author's surname, year, first title word), an entry
// type chosen by venue, arXiv's eprint fields, DOI and URL, and LaTeX's
// special characters and accents escaped. It is pure: values in, text out;
// it imports only the standard library.
package bibtex
