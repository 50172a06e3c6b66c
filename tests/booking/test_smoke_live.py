import requests


def test_the_live_server_answers_health_and_availability(live_url):
    assert requests.get(live_url + "/api/v1/health").json()["status"] == "ok"
    answer = requests.get(live_url + "/api/v1/availability", params={"check_in": "2030-01-10", "check_out": "2030-01-13"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["nights"] == 3
