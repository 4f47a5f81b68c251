"""The signature rows of the tools around Paddle: the deployment tools and converters that run a saved model, the
package managers and builds that install Paddle and what it needs (:mod:`..table` joins them with :mod:`..rows` in
match order); the interpreter's and the command line's rows, which :mod:`..rows` splices into its own tables."""
