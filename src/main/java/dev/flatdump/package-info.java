/** flatdump's one exception family, which every stage's errors extend. */
package dev.flatdump;
