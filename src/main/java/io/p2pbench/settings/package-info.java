/**
 * Every {@code p2pbench.*} system property as one typed record ({@link io.p2pbench.settings.Settings}), read in one
 * place; below every other package, so the CUDA layer reads it too.
 */
package io.p2pbench.settings;
