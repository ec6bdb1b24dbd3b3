/** Test support: a real MongoDB server for flatdump's tests, through a JUnit extension. */
package dev.flatdump.testing;
