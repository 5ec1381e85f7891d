/**
 * One-line wording of the problems a file can have: an {@link java.io.IOException} (permission denied, no
 * such file) or a JSON document that is not what was expected (truncated, a list where an object belongs),
 * said in the user's terms, never as a Java or Jackson class name. Depends on nothing of the suite, so every
 * package that reads or writes files words them alike.
 */
package io.p2pbench.files;
