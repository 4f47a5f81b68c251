"""The signature rows of the tools around Paddle: the deployment tools and converters that run a saved model, the
package managers and builds that install Paddle and what it needs, the interpreter and the command line that run it;
:mod:`..table` joins them with :mod:`..rows` in match order."""
