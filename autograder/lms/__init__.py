"""Between the course and a learning management system (Canvas, Moodle).

- :mod:`.roster`: the class list that maps LMS ids to the course's student ids;
- :mod:`.collect`: an LMS download (zip) into the class's ``submitted/`` (`make collect`);
- :mod:`.export`: grades and feedback back out, as each LMS imports them (`make export`).
"""
